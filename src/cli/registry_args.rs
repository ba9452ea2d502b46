//! Command-line values from the core registry (`precis::registry`): the
//! accepted names of methods and policies, each with its help line in
//! `--help`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use precis::registry;
use precis::stream::PolicyKind;
use precis::summarize::Method;

pub fn method_parser() -> impl TypedValueParser<Value = Method> {
    let values = registry::methods().map(|m| PossibleValue::new(m.name).help(m.help));
    PossibleValuesParser::new(values).map(|name| name.parse::<Method>().expect("a registered method"))
}

pub fn policy_parser() -> impl TypedValueParser<Value = PolicyKind> {
    let values = registry::policies().map(|p| PossibleValue::new(p.name).help(p.help));
    PossibleValuesParser::new(values).map(|name| name.parse::<PolicyKind>().expect("a registered policy"))
}
