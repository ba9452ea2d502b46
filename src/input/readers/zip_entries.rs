//! The parts of a Word or OpenDocument file, which are ZIP archives, read
//! with a cap on what they unpack to: a ZIP bomb of a few kilobytes could
//! otherwise unpack to gigabytes.

use crate::input::{DocumentFormat, DocumentLimit, InputError};
use crate::limits::MAX_UNPACKED_BYTES;
use std::io::{Cursor, Read};
use zip::result::ZipError;
use zip::ZipArchive;

pub(super) struct Archive<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    format: DocumentFormat,
    /// Bytes that may still be unpacked.
    budget: usize,
}

impl<'a> Archive<'a> {
    pub(super) fn open(bytes: &'a [u8], format: DocumentFormat) -> Result<Self, InputError> {
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| problem(format, &e))?;
        Ok(Self { zip, format, budget: MAX_UNPACKED_BYTES })
    }

    /// The text of the entry `name`, `None` when there is none.
    pub(super) fn text(&mut self, name: &str) -> Result<Option<String>, InputError> {
        let format = self.format;
        let entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(problem(format, &e)),
        };
        // Sized from the entry's header (capped by the budget, as the header
        // may lie) so a large part is not copied as the buffer doubles.
        let mut bytes = Vec::with_capacity((entry.size() as usize).min(self.budget + 1));
        entry.take(self.budget as u64 + 1).read_to_end(&mut bytes).map_err(|_| InputError::Damaged { format })?;
        if bytes.len() > self.budget {
            return Err(InputError::DocumentTooLarge { format, limit: DocumentLimit::UnpackedSize });
        }
        self.budget -= bytes.len();
        // Valid UTF-8 (the usual case) becomes the text without a copy.
        Ok(Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())))
    }
}

fn problem(format: DocumentFormat, error: &ZipError) -> InputError {
    match error {
        ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED) | ZipError::InvalidPassword => {
            InputError::PasswordProtected { format }
        }
        _ => InputError::Damaged { format },
    }
}
