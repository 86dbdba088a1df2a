"""The `ttbench` command.

    ttbench models
    ttbench bringup NAME|PATH.onnx [--frontend F] [--params P] [--out DIR] [--no-tt]
                    [--input-shape AxB ... | --inputs FILE.npz|DIR] [--dim NAME=VALUE ...]
                    [--hoist MIN_NUMEL[:args|globals]] [--run cpu|cuda|tt [--stage S] [--op-by-op [--chained]]
                    [--save-outputs F]] [--compare EARLIER,LATER]
                    [--weights random|meta] [--weights-file F.safetensors]
    ttbench diff DIR_A DIR_B [--stage S] [--html OUT] [--unified]
    ttbench sweep [--models a,b] [--frontends export,dynamo,onnx] [--out DIR] [--jobs N] [--no-tt] [--no-run] [--ops]
                  [--db PATH] [--label NAME] [--engine local|ray [--address RAY_ADDRESS]]
    ttbench history [--db PATH] [--before RUN] [--after RUN] [--html OUT]
    ttbench conformance [--sample | --tests a,b | --ops Abs,Add] [--jobs N] [--no-tt] [--out DIR] [--db PATH]
                        [--engine local|ray [--address RAY_ADDRESS]]
    ttbench explore DIR [--stage S] [--port N]
    ttbench doctor

Exit codes: 0 every stage succeeded (and every comparison passed), 1 a stage failed or a comparison did not
pass (what exists is still written) or a service ttbench needs (a Ray cluster) did not come up, 2 bad input. `diff`: 0 nothing meaningful changed, 1 something did.
`sweep`: 1 when a failure is not in the known list. `history`: 1 when a job regressed (newly failing, furthest stage
earlier, PCC drop). `conformance`: 0 when it ran (the table is the result).
"""
from __future__ import annotations

import sys

from ..core import BadInput, ServiceFailed
from .args import build_parser
from .commands import COMMANDS


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except BadInput as exc:
        print(f"ttbench: error: {exc}", file=sys.stderr)
        return 2
    except ServiceFailed as exc:
        print(f"ttbench: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ttbench: interrupted", file=sys.stderr)
        return 130

