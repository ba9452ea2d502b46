use crate::data_resolver::ModelDataResolver;
use crate::model::ParsingContext;
use crate::pb::tensor_proto::DataType;
use crate::pb::*;
use prost::Message;
use std::convert::{TryFrom, TryInto};
use std::path::{Component, Path, PathBuf};
use tract_hir::internal::*;

impl TryFrom<DataType> for DatumType {
    type Error = TractError;
    fn try_from(t: DataType) -> TractResult<DatumType> {
        match t {
            DataType::Bool => Ok(DatumType::Bool),
            DataType::Uint8 => Ok(DatumType::U8),
            DataType::Uint16 => Ok(DatumType::U16),
            DataType::Uint32 => Ok(DatumType::U32),
            DataType::Uint64 => Ok(DatumType::U64),
            DataType::Int8 => Ok(DatumType::I8),
            DataType::Int16 => Ok(DatumType::I16),
            DataType::Int32 => Ok(DatumType::I32),
            DataType::Int64 => Ok(DatumType::I64),
            DataType::Float16 => Ok(DatumType::F16),
            DataType::Float => Ok(DatumType::F32),
            DataType::Double => Ok(DatumType::F64),
            DataType::String => Ok(DatumType::String),
            _ => bail!("Unknown DatumType {:?}", t),
        }
    }
}

pub fn translate_inference_fact(
    ctx: &ParsingContext,
    t: &type_proto::Tensor,
    include_unknown_symbols: bool,
) -> TractResult<InferenceFact> {
    let mut fact = InferenceFact::default();
    let dt: DatumType = DataType::try_from(t.elem_type)
        .map_err(|e| format_err!("unknown ONNX TensorProto.DataType ({}): {e}", t.elem_type))?
        .try_into()?;
    fact = fact.with_datum_type(dt);
    if let Some(shape) = &t.shape {
        let shape: TVec<DimFact> = shape
            .dim
            .iter()
            .map(|d| -> TractResult<DimFact> {
                match &d.value {
                    Some(tensor_shape_proto::dimension::Value::DimValue(v)) if *v >= 0 => {
                        Ok(DimFact::from(v.to_dim()))
                    }
                    Some(tensor_shape_proto::dimension::Value::DimParam(v)) => {
                        if v == "?" || (v.starts_with("unk__") && !include_unknown_symbols) {
                            Ok(DimFact::default())
                        } else {
                            // Not `parse_tdim`: a dim_param is a rational
                            // expression and TDim is integral, so that parser
                            // reads `1/2` as `0`.
                            match crate::dim_expr::parse_onnx_dim(&ctx.template.symbols, v) {
                                Ok(dim) => Ok(DimFact::from(dim)),
                                Err(e) => {
                                    // A dim_param that cannot be translated
                                    // (sympy expressions from torch dynamo, for
                                    // one) is left unknown for shape inference.
                                    log::debug!(
                                        "Could not translate dim_param `{v}`, treating as unknown: {e:?}"
                                    );
                                    Ok(DimFact::default())
                                }
                            }
                        }
                    }
                    _ => Ok(DimFact::default()),
                }
            })
            .collect::<TractResult<_>>()?;
        fact = fact.with_shape(ShapeFactoid::closed(shape));
    }
    Ok(fact)
}

/// Resolves an existing relative external-data path within its canonical model directory.
fn resolve_external_data_path(model_dir: &Path, location: &str) -> TractResult<PathBuf> {
    let location_path = Path::new(location);
    if location_path.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        bail!(
            "external data location must be a relative path inside the model directory, got {location:?}"
        );
    }

    let model_dir = if model_dir.as_os_str().is_empty() { Path::new(".") } else { model_dir };
    let model_dir = model_dir
        .canonicalize()
        .with_context(|| format!("Canonicalizing ONNX model directory {model_dir:?}"))?;
    let data_path = model_dir.join(location_path);
    let data_path = data_path
        .canonicalize()
        .with_context(|| format!("Canonicalizing ONNX external data path {data_path:?}"))?;
    ensure!(
        data_path.starts_with(&model_dir),
        "external data path {data_path:?} resolves outside the model directory {model_dir:?}"
    );
    Ok(data_path)
}

fn get_external_resources(
    provider: &dyn ModelDataResolver,
    t: &TensorProto,
    path: &str,
) -> TractResult<Vec<u8>> {
    let mut tensor_data: Vec<u8> = Vec::new();
    trace!("number of external file needed for this tensor: {}", t.external_data.len());
    let location = t
        .external_data
        .iter()
        .find(|it| it.key == "location")
        .map(|it| it.value.as_str())
        .context("Could not find external data location")?;

    let offset: usize = t
        .external_data
        .iter()
        .find(|it| it.key == "offset")
        .map(|it| it.value.parse())
        .transpose()
        .context("Error while parsing offset value on external data description")?
        .unwrap_or(0);

    let length: Option<usize> = t
        .external_data
        .iter()
        .find(|it| it.key == "length")
        .map(|it| it.value.parse())
        .transpose()
        .context("Error while parsing length value on external data description")?;

    let p = resolve_external_data_path(Path::new(path), location)?;

    trace!("external file detected: {p:?}, offset {offset:?}, length: {length:?}");
    provider.read_bytes_from_path(&mut tensor_data, &p, offset, length)?;
    trace!("external file loaded");
    Ok(tensor_data)
}

#[cfg(all(test, unix))]
mod path_tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    #[test]
    fn external_data_path_must_resolve_inside_model_directory() -> TractResult<()> {
        let temp = tempfile::tempdir()?;
        let model_dir = temp.path().join("model");
        let outside = temp.path().join("outside.bin");
        fs::create_dir(&model_dir)?;
        fs::write(model_dir.join("inside.bin"), b"inside")?;
        fs::write(&outside, b"outside")?;
        symlink("inside.bin", model_dir.join("inside-link"))?;
        symlink("../outside.bin", model_dir.join("relative-outside-link"))?;
        symlink(&outside, model_dir.join("absolute-outside-link"))?;
        symlink(temp.path(), model_dir.join("outside-dir"))?;

        let inside = model_dir.join("inside.bin").canonicalize()?;
        assert_eq!(resolve_external_data_path(&model_dir, "inside.bin")?, inside);
        assert_eq!(resolve_external_data_path(&model_dir, "inside-link")?, inside);
        assert!(resolve_external_data_path(&model_dir, "relative-outside-link").is_err());
        assert!(resolve_external_data_path(&model_dir, "absolute-outside-link").is_err());
        assert!(resolve_external_data_path(&model_dir, "outside-dir/outside.bin").is_err());
        assert!(resolve_external_data_path(&model_dir, "../outside.bin").is_err());
        assert!(resolve_external_data_path(&model_dir, outside.to_str().unwrap()).is_err());
        Ok(())
    }
}

fn create_tensor(shape: Vec<usize>, dt: DatumType, data: &[u8]) -> TractResult<Tensor> {
    unsafe {
        match dt {
            DatumType::U8 => Tensor::from_raw::<u8>(&shape, data),
            DatumType::U16 => Tensor::from_raw::<u16>(&shape, data),
            DatumType::U32 => Tensor::from_raw::<u32>(&shape, data),
            DatumType::U64 => Tensor::from_raw::<u64>(&shape, data),
            DatumType::I8 => Tensor::from_raw::<i8>(&shape, data),
            DatumType::I16 => Tensor::from_raw::<i16>(&shape, data),
            DatumType::I32 => Tensor::from_raw::<i32>(&shape, data),
            DatumType::I64 => Tensor::from_raw::<i64>(&shape, data),
            DatumType::F16 => Tensor::from_raw::<f16>(&shape, data),
            DatumType::F32 => Tensor::from_raw::<f32>(&shape, data),
            DatumType::F64 => Tensor::from_raw::<f64>(&shape, data),
            DatumType::Bool => Ok(Tensor::from_raw::<u8>(&shape, data)?
                .into_plain_array::<u8>()?
                .mapv(|x| x != 0)
                .into()),
            _ => unimplemented!("FIXME, raw tensor loading"),
        }
    }
}

pub fn load_tensor(
    provider: &dyn ModelDataResolver,
    t: &TensorProto,
    path: Option<&str>,
) -> TractResult<Tensor> {
    let dt = DataType::try_from(t.data_type)
        .map_err(|e| format_err!("unknown ONNX TensorProto.DataType ({}): {e}", t.data_type))?
        .try_into()?;
    let shape = t
        .dims
        .iter()
        .map(|&i| {
            if i < 0 {
                bail!("Negative dimension in ONNX TensorProto dims: {i}")
            } else {
                Ok(i as usize)
            }
        })
        .collect::<TractResult<Vec<usize>>>()?;
    // detect if the tensor is rather in an external file than inside the onnx file directly
    let is_external = t.data_location.is_some()
        && t.data_location == Some(tensor_proto::DataLocation::External as i32);
    if t.raw_data.len() > 0 {
        create_tensor(shape, dt, &t.raw_data)
    } else if is_external {
        if let Some(model_path) = path {
            // external files will be loaded and fed to the tensor if necessary
            let external_data = get_external_resources(provider, t, model_path)?;
            create_tensor(shape, dt, &external_data)
        } else {
            bail!(
                "no model path was specified in the parsing context, yet external data was detected. aborting"
            );
        }
    } else {
        use tract_ndarray::Array;
        let it = match dt {
            DatumType::Bool => {
                Array::from_shape_vec(&*shape, t.int32_data.iter().map(|&x| x != 0).collect())?
                    .into()
            }
            DatumType::U8 => {
                Array::from_shape_vec(&*shape, t.int32_data.iter().map(|&x| x as u8).collect())?
                    .into()
            }
            DatumType::U16 => {
                Array::from_shape_vec(&*shape, t.int32_data.iter().map(|&x| x as u16).collect())?
                    .into()
            }
            DatumType::U32 => Array::from_shape_vec(&*shape, t.int32_data.to_vec())?.into(),
            DatumType::U64 => Array::from_shape_vec(&*shape, t.int64_data.to_vec())?.into(),
            DatumType::I8 => {
                Array::from_shape_vec(&*shape, t.int32_data.iter().map(|&x| x as i8).collect())?
                    .into()
            }
            DatumType::I16 => {
                Array::from_shape_vec(&*shape, t.int32_data.iter().map(|&x| x as i16).collect())?
                    .into()
            }
            DatumType::I32 => Array::from_shape_vec(&*shape, t.int32_data.to_vec())?.into(),
            DatumType::I64 => Array::from_shape_vec(&*shape, t.int64_data.to_vec())?.into(),
            DatumType::F16 => Array::from_shape_vec(
                &*shape,
                t.int32_data.iter().map(|&x| f16::from_bits(x as u16)).collect(),
            )?
            .into(),
            DatumType::F32 => Array::from_shape_vec(&*shape, t.float_data.to_vec())?.into(),
            DatumType::F64 => Array::from_shape_vec(&*shape, t.double_data.to_vec())?.into(),
            DatumType::String => {
                let strings = t
                    .string_data
                    .iter()
                    .cloned()
                    .map(String::from_utf8)
                    .collect::<Result<Vec<String>, _>>()
                    .context("Invalid UTF8 buffer")?;
                Array::from_shape_vec(&*shape, strings)?.into()
            }
            _ => unimplemented!("FIXME, struct tensor loading: {:?}", dt),
        };
        Ok(it)
    }
}

pub fn proto_from_reader<R: ::std::io::Read>(mut r: R) -> TractResult<TensorProto> {
    let mut v = vec![];
    r.read_to_end(&mut v)?;
    let b = bytes::Bytes::from(v);
    TensorProto::decode(b).context("Can not parse protobuf input")
}

#[cfg(test)]
mod tests {
    use super::*;

    // Regression: an ONNX TensorProto with a DataType value that prost
    // doesn't recognise used to abort the process via `unwrap()` on the
    // `try_from` error. Now it must produce a normal TractError.
    #[test]
    fn unknown_elem_type_does_not_panic() {
        assert!(DataType::try_from(9999_i32).is_err());
    }

    // Post-BF16 dtypes (FLOAT8E4M3FN .. FLOAT4E2M1) are now decoded by prost.
    // tract still doesn't support them in DatumType, but the conversion error
    // should name the dtype rather than fall through a `_` arm with `Unknown`.
    #[test]
    fn newer_dtypes_decode_then_error_cleanly() {
        for elem_type in 17..=23 {
            let dt = DataType::try_from(elem_type)
                .unwrap_or_else(|e| panic!("dtype {elem_type} not decoded by prost: {e}"));
            let err = DatumType::try_from(dt)
                .expect_err("tract should not claim support for FLOAT8/INT4/FLOAT4 dtypes yet");
            let msg = format!("{err:?}");
            assert!(
                msg.contains("Float8")
                    || msg.contains("Uint4")
                    || msg.contains("Int4")
                    || msg.contains("Float4"),
                "DatumType conversion error for {dt:?} did not name the dtype: {msg}",
            );
        }
    }
}
