//! Where the CLI finds the model files: the library's loaders
//! (`precis::models`), shared with the Python package.

pub use precis::models::{encoder_path, load_encoder, load_encoder_timed, load_heads, models_dir};
