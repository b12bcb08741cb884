//! Pattern databases (in progress).
