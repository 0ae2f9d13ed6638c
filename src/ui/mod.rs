//! The sandbox page. The pure parts — the session and its time travel, panel contents, narration,
//! the translation table, the URL fragment, presets, the diagram's geometry — compile on every
//! target and are unit-tested natively. The Yew components (`app`) are wasm32 only.

pub mod fragment;
pub mod i18n;
pub mod layout;
pub mod model;
pub mod narrate;
pub mod poster;
pub mod presets;
pub mod state;
pub mod story;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub mod app;
