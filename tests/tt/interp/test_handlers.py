"""ttbench's interpreter on handwritten TTIR/TTNN programs, each handler against torch's own reference op. No
compiler is needed: these run in `make test-fast` (the compiler's own programs are test_programs.py)."""
import os

import pytest
import torch
import torch.nn.functional as F

from ttbench.tt.interp import Unsupported, interpret, known_ops
from ttbench.tt.program import parse_program
from tests.paths import REPO


# --- handcrafted TTNN programs against torch's own ops --------------------------------------------------------

def _program(body: str, args: str, result: str) -> str:
    return (f"module {{\n  func.func @main({args}) -> {result} {{\n{body}\n  }}\n}}\n")


def _run(text, *inputs, stage="ttnn"):
    return interpret(parse_program(stage, text), list(inputs)).outputs


def test_flattened_conv2d_with_padding_groups_bias_and_stride():
    n, c, h, w, o, groups = 2, 6, 9, 7, 4, 2
    x = torch.randn(n, c, h, w)
    weight = torch.randn(o, c // groups, 3, 3)
    bias = torch.randn(1, 1, 1, o)
    expected = F.conv2d(F.pad(x, (0, 2, 1, 1)), weight, bias.reshape(-1), stride=(2, 1), groups=groups)
    eh, ew = expected.shape[2:]
    flat = x.permute(0, 2, 3, 1).reshape(1, 1, n * h * w, c)
    text = _program(
        f'    %0 = "ttnn.conv2d"(%arg0, %arg1, %arg2) <{{batch_size = {n} : i32, dilation = array<i32: 1, 1>, '
        f'groups = {groups} : i32, in_channels = {c} : i32, input_height = {h} : i32, input_width = {w} : i32, '
        f'kernel_size = array<i32: 3, 3>, out_channels = {o} : i32, padding = array<i32: 1, 1, 0, 2>, '
        f'stride = array<i32: 2, 1>}}> : (tensor<1x1x{n * h * w}x{c}xf32>, tensor<{o}x{c // groups}x3x3xf32>, '
        f'tensor<1x1x1x{o}xf32>) -> tensor<1x1x{n * eh * ew}x{o}xf32>\n'
        f'    return %0 : tensor<1x1x{n * eh * ew}x{o}xf32>',
        f"%arg0: tensor<1x1x{n * h * w}x{c}xf32>, %arg1: tensor<{o}x{c // groups}x3x3xf32>, "
        f"%arg2: tensor<1x1x1x{o}xf32>", f"tensor<1x1x{n * eh * ew}x{o}xf32>")
    (out,) = _run(text, flat, weight, bias)
    want = expected.permute(0, 2, 3, 1).reshape(1, 1, -1, o)
    assert torch.allclose(out, want, atol=1e-5)


def test_fused_activations_apply_to_their_operand():
    a, b = torch.randn(4, 8), torch.rand(4, 8) + 0.5
    text = _program(
        '    %0 = "ttnn.multiply"(%arg0, %arg1) <{activations = [#ttnn.unary_with_param<op_type = relu>], '
        'input_tensor_a_activations = [#ttnn.unary_with_param<op_type = sigmoid>], input_tensor_b_activations = '
        '[#ttnn.unary_with_param<op_type = rsqrt>]}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n'
        '    return %0 : tensor<4x8xf32>', "%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>", "tensor<4x8xf32>")
    (out,) = _run(text, a, b)
    assert torch.allclose(out, torch.relu(torch.sigmoid(a) * torch.rsqrt(b)))
    unknown = text.replace("op_type = relu", "op_type = mish_v9")
    with pytest.raises(Unsupported, match="fused activation 'mish_v9'"):
        _run(unknown, a, b)


def test_transpose_with_negative_dims_and_pow_with_a_tensor_exponent():
    # both met first in the model tracker's transformers (llama's attention scores, gpt2's gelu through ONNX)
    x, e = torch.randn(2, 3, 5), torch.rand(2, 5, 3) + 0.5
    text = _program(
        '    %0 = "ttnn.transpose"(%arg0) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<2x3x5xf32>) -> '
        'tensor<2x5x3xf32>\n'
        '    %1 = "ttnn.pow_tensor"(%0, %arg1) : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>\n'
        '    return %1 : tensor<2x5x3xf32>', "%arg0: tensor<2x3x5xf32>, %arg1: tensor<2x5x3xf32>", "tensor<2x5x3xf32>")
    (out,) = _run(text, x, e)
    assert torch.allclose(out, torch.pow(x.transpose(1, 2), e), equal_nan=True)


@pytest.mark.parametrize("column", [False, True])
def test_rows_gather_both_modes(column):
    if column:  # single elements of a [2, 3] grid, addressed by (row, col) components
        data = torch.arange(6, dtype=torch.float32).reshape(1, 2, 3) * 10
        idx = torch.tensor([[[1, 0, 1, 0], [2, 0, 0, 1]]], dtype=torch.int32)
        want = torch.tensor([[data[0, 1, 2], data[0, 0, 0], data[0, 1, 0], data[0, 0, 1]]])
        types = "(tensor<1x2x3xf32>, tensor<1x2x4xsi32>) -> tensor<1x4xf32>"
        sizes, result = "2, 3", "tensor<1x4xf32>"
        args = "%arg0: tensor<1x2x3xf32>, %arg1: tensor<1x2x4xsi32>"
    else:  # whole rows of an embedding table
        data = torch.randn(1, 5, 3)
        idx = torch.tensor([[[4, 0, 4, 2]]], dtype=torch.int32)
        want = data[0][idx[0, 0].long()].reshape(1, 4, 3)
        types = "(tensor<1x5x3xf32>, tensor<1x1x4xsi32>) -> tensor<1x4x3xf32>"
        sizes, result = "5", "tensor<1x4x3xf32>"
        args = "%arg0: tensor<1x5x3xf32>, %arg1: tensor<1x1x4xsi32>"
    windows = ", ".join("1" for _ in sizes.split(","))
    text = _program(f'    %0 = "ttnn.rows_gather"(%arg0, %arg1) <{{column = {str(column).lower()}, '
                    f'fill_out_of_bounds = false, sizes = array<i64: {sizes}>, windows = array<i64: {windows}>}}> : '
                    f'{types}\n    return %0 : {result}', args, result)
    (out,) = _run(text, data, idx)
    assert torch.equal(out, want)


def test_max_pool2d_in_bf16():
    x = torch.randn(1, 4, 8, 8).to(torch.bfloat16)
    flat = x.permute(0, 2, 3, 1).reshape(1, 1, 64, 4)
    text = _program(
        '    %0 = "ttnn.max_pool2d"(%arg0) <{batch_size = 1 : si32, ceil_mode = false, channels = 4 : si32, '
        'dilation = array<i32: 1, 1>, input_height = 8 : si32, input_width = 8 : si32, kernel_size = '
        'array<i32: 3, 3>, padding = array<i32: 1, 1>, stride = array<i32: 2, 2>}> : (tensor<1x1x64x4xbf16>) -> '
        'tensor<1x1x16x4xbf16>\n    return %0 : tensor<1x1x16x4xbf16>', "%arg0: tensor<1x1x64x4xbf16>",
        "tensor<1x1x16x4xbf16>")
    (out,) = _run(text, flat)
    want = F.max_pool2d(x.float(), 3, 2, 1).permute(0, 2, 3, 1).reshape(1, 1, 16, 4)
    assert out.dtype == torch.bfloat16 and torch.equal(out.float(), want)


def test_hex_splat_constant_is_the_float_it_encodes():
    text = _program('    %0 = "ttir.constant"() <{value = dense<0xFF800000> : tensor<2xf32>}> : () -> tensor<2xf32>\n'
                    '    return %0 : tensor<2xf32>', "", "tensor<2xf32>")
    (out,) = _run(text, stage="ttir")
    assert torch.equal(out, torch.full((2,), -float("inf")))


def test_a_constant_that_is_no_tensor_is_refused_not_an_internal_error():
    # A scalar-typed constant (an edit, another compiler's dialect) crashed the reader as ttbench's own bug.
    text = _program('    %0 = "ttir.constant"() <{value = dense<1.0> : f32}> : () -> f32\n'
                    '    return %0 : f32', "", "f32")
    with pytest.raises(Unsupported, match="a constant of a type that is not a tensor"):
        _run(text, stage="ttir")


def test_registry_lists_each_kind_with_its_reference():
    ops = known_ops()
    for name in ("ttnn.conv2d", "ttnn.matmul", "ttnn.rows_gather", "ttcore.load_cached", "ttir.dot_general",
                 "ttnn.softmax", "ttnn.max_pool2d", "ttir.conv2d"):
        assert name in ops and ops[name]
    assert len(ops) > 100


def test_the_documented_table_of_op_kinds_is_the_registry():
    from ttbench.tt.interp.__main__ import markdown_table

    with open(os.path.join(REPO, "docs", "interpreter.md")) as f:
        assert markdown_table() in f.read(), "docs/interpreter.md's op table is stale: python -m ttbench.tt.interp"
