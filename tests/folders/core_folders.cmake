# core/'s libraries (docs/ARCHITECTURE.md, "Libraries"): the Torch-free protocol/ at the bottom, the
# LibTorch engine/ at the top. Each exports only its own include/ (or, for the engine, its folder),
# so a target sees the headers of the libraries it links and no others; this check keeps the
# direction between them visible in one place.
set(folders protocol plan launch tensorboard tokenize engine bench)
set(allowed_protocol "")
set(allowed_plan protocol)
set(allowed_launch "")
set(allowed_tensorboard "")
set(allowed_tokenize "")
set(allowed_engine protocol launch tensorboard tokenize)
set(allowed_bench protocol plan launch)
