//! Maurice Lite.
