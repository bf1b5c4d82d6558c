"""Prints every scalar of a TensorBoard log folder as JSON, {tag: [[step, value], ...]}, read by
the real tensorboard package's EventAccumulator (what TensorBoard's own scalar dashboard uses).

usage: tensorboard_scalars.py LOG_DIR
"""
import json
import sys

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    # size_guidance 0: keep every scalar (the default samples 10000 per tag).
    acc = EventAccumulator(sys.argv[1], size_guidance={"scalars": 0})
    acc.Reload()
    scalars = {tag: [[e.step, e.value] for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}
    json.dump(scalars, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
