//! The one ONNX reader of Précis's models: the encoder (f32 and int8) and the
//! CeRA / CeRAI heads, natively and in wasm.
//!
//! It knows only the operators those models use (`tract_onnx::onnx_precis`,
//! a patch of ours in vendor/tract-onnx), plus the int8 encoder's own ops.
//! tract's full reader registers all ~190 ONNX operators, and since a
//! registry holds every parser, none of their code could be dropped: FFT,
//! convolutions, recurrent layers and tree ensembles made up a quarter of
//! the app's first load (vendor/README.md). A model built with another
//! operator gets a message naming it.

use anyhow::{bail, Context, Result};
use std::io::Cursor;
use tract_onnx::prelude::*;

/// The reader, with the int8 encoder's ops registered.
fn reader() -> tract_onnx::Onnx {
    let mut reader = tract_onnx::onnx_precis();
    super::int8::register(&mut reader.op_register);
    reader
}

/// Reads `onnx`; `what` names the model in messages ("encoder.onnx").
pub fn read(onnx: &[u8], what: &str) -> Result<InferenceModel> {
    let model = reader()
        .model_for_read(&mut Cursor::new(onnx))
        .with_context(|| format!("{what}: not a readable ONNX model"))?;
    let unknown = unknown_operators(&model);
    if !unknown.is_empty() {
        bail!(
            "{what}: uses ONNX operators Précis does not read: {} (its reader knows the operators of \
             the models that models/build.py and models/cera/train.py write; see src/encoder/onnx_reader.rs)",
            unknown.join(", ")
        );
    }
    Ok(model)
}

/// Operators the reader had no parser for: tract keeps them as placeholder
/// nodes and would only fail later, while typing the graph, with a vaguer
/// message.
fn unknown_operators(model: &InferenceModel) -> Vec<String> {
    let mut names: Vec<String> = model
        .nodes()
        .iter()
        .filter_map(|node| {
            let name = node.op.name();
            name.strip_prefix("Unimplemented(").and_then(|rest| rest.strip_suffix(')')).map(str::to_string)
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-node ONNX graph `y = OP(x)`, written with tract's protobuf types.
    fn one_node_model(op_type: &str) -> Vec<u8> {
        use prost::Message;
        use tract_onnx::pb::*;
        let float_tensor = TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor { elem_type: 1, shape: None })),
            ..Default::default()
        };
        let value =
            |name: &str| ValueInfoProto { name: name.into(), r#type: Some(float_tensor.clone()), ..Default::default() };
        let graph = GraphProto {
            node: vec![NodeProto {
                op_type: op_type.into(),
                input: vec!["x".into()],
                output: vec!["y".into()],
                ..Default::default()
            }],
            input: vec![value("x")],
            output: vec![value("y")],
            ..Default::default()
        };
        let model = ModelProto {
            ir_version: 8,
            opset_import: vec![OperatorSetIdProto { domain: String::new(), version: 17 }],
            graph: Some(graph),
            ..Default::default()
        };
        model.encode_to_vec()
    }

    #[test]
    fn an_operator_our_models_use_is_read() {
        let model = read(&one_node_model("Relu"), "relu.onnx").unwrap();
        assert_eq!(model.nodes().len(), 2);
    }

    #[test]
    fn an_operator_outside_our_models_is_named() {
        let error = read(&one_node_model("STFT"), "other.onnx").unwrap_err().to_string();
        assert!(error.contains("other.onnx: uses ONNX operators Précis does not read: STFT"), "{error}");
    }
}
