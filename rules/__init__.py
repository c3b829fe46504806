"""The Laws of Carrom as code: pure, immutable, no I/O (see DESIGN.md)."""
