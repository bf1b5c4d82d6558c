// Compiled once to produce the shared Torch precompiled header.
