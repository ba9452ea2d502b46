#![allow(clippy::len_zero)]
#[macro_use]
extern crate log;

pub mod ast;
pub mod deser;
pub mod framework;
#[cfg(feature = "unstable-jinja")]
mod jinja;
pub mod ops;
pub mod registry;
pub mod resource;
pub mod ser;
pub mod tensors;
// Précis (vendored patch, see vendor/README.md): the "patch" model transform
// registers itself at start-up (inventory) and builds the full NNEF framework,
// which links every core operator's code (FFT, convolutions, ...) into any
// binary that depends on tract-nnef, even one that never reads NNEF.
#[cfg(feature = "patch-transform")]
mod transform;

pub use ast::ProtoModel;

pub use tract_core;
pub use tract_core::prelude::tract_ndarray;
pub use tract_core::prelude::tract_num_traits;

pub mod prelude {
    pub use tract_core;
    pub use tract_core::prelude::*;
}

pub mod internal {
    pub use crate::ast::dump_doc::DocDumper;
    pub use crate::ast::parse::{parse_assignments, parse_parameters};
    pub use crate::ast::{
        Assignment, FragmentDecl, FragmentDef, Identifier, Parameter, RValue, TypeName, param,
    };
    pub use crate::deser::{ModelBuilder, ResolvedInvocation, Value};
    pub use crate::framework::Nnef;
    pub use crate::prelude::*;
    pub use crate::registry::*;
    pub use crate::resource::{
        DatLoader, GraphNnefLoader, GraphQuantLoader, Resource, ResourceLoader, TypedModelLoader,
        TypedModelResource,
    };
    pub use crate::ser::{IntoAst, invocation, logical, numeric, string};
    pub use std::any::TypeId;
    pub use tract_core::internal::*;
}

pub fn nnef() -> framework::Nnef {
    framework::Nnef::default()
}
