"""Tensor stores of compiled services (compoworld/synthesis/tensor.py): a linear algebra server's tools
store named tensors and compute with them what NumPy computes, and the fidelity check `tensors` catches
a computation that answers something else."""

from __future__ import annotations

from typing import Any

import numpy as np

from compoworld.services.environment import Environment
from compoworld.synthesis.compiler import build_service
from compoworld.synthesis.fidelity import check_fidelity
from compoworld.synthesis.infer import infer_plan
from compoworld.synthesis.loader import ServerSpec, ToolIn

S = {"type": "string"}
NUMS = {"type": "array", "items": {"type": "number"}}


def tool(name: str, desc: str, props: dict[str, Any], req: tuple[str, ...] = ()) -> ToolIn:
    return ToolIn(name=name, ident=name, description=desc, input_schema={"type": "object", "properties": props, "required": list(req)})


def pair(name: str, desc: str) -> ToolIn:
    return tool(name, desc, {"name_a": S, "name_b": S}, ("name_a", "name_b"))


def one(name: str, desc: str) -> ToolIn:
    return tool(name, desc, {"name": S}, ("name",))


LINALG = ServerSpec(id="linalg", source="test", name="Linear Algebra Lab", description="Matrix computations with NumPy.", tools=[
    tool("create_tensor", "Creates a NumPy array with a given shape and values and stores it under a name.",
         {"name": S, "shape": {"type": "array", "items": {"type": "integer"}}, "values": NUMS}, ("name", "shape", "values")),
    one("view_tensor", "Returns a stored tensor."),
    one("delete_tensor", "Deletes a tensor from the store."),
    pair("add_matrices", "Adds two stored tensors element-wise."),
    pair("multiply_matrices", "Matrix multiplication of two stored tensors."),
    one("determinant", "Computes the determinant of a stored square matrix."),
    one("matrix_inverse", "Computes the inverse of a stored square matrix."),
    one("svd_decompose", "Singular value decomposition of a stored matrix."),
    tool("scale_matrix", "Scales a stored tensor by a factor.", {"name": S, "scale_factor": {"type": "number"},
                                                                   "in_place": {"type": "boolean", "default": True}}, ("name", "scale_factor")),
    tool("vector_project", "Projects a stored vector onto another vector.", {"name": S, "new_vector": NUMS}, ("name", "new_vector")),
])


def step(env: Environment, tool_name: str, /, **args: Any) -> Any:
    return env.step({"name": f"linalg__{tool_name}", "arguments": args})


def test_a_linear_algebra_servers_tools_compute_on_one_store_of_named_tensors() -> None:
    from compoworld.synthesis.verify import verify_service

    plan = infer_plan(LINALG, "linalg")
    ops = {t.original: (t.op, t.read_only) for t in plan.tools}
    assert ops["add_matrices"] == ("tensor", True) and ops["create_tensor"] == ("tensor", False) and ops["scale_matrix"] == ("tensor", False)
    assert verify_service(build_service(plan)).verified
    env = Environment([build_service(plan)], seed=5)
    a, b = np.array([[2.0, 1.0], [5.0, 3.0]]), np.array([[0.5, -1.0], [4.0, 2.0]])
    assert step(env, "create_tensor", name="K", shape=[2, 2], values=a.reshape(-1).tolist()).ok
    assert step(env, "create_tensor", name="L", shape=[2, 2], values=b.reshape(-1).tolist()).ok
    assert step(env, "add_matrices", name_a="K", name_b="L").data["result"] == (a + b).tolist()
    assert step(env, "multiply_matrices", name_a="K", name_b="L").data["result"] == (a @ b).tolist()
    assert step(env, "determinant", name="K").data["determinant"] == 1.0
    assert np.allclose(step(env, "matrix_inverse", name="K").data["result"], np.linalg.inv(a))
    svd = step(env, "svd_decompose", name="K").data
    assert np.allclose(np.array(svd["U"]) @ np.diag(svd["S"]) @ np.array(svd["V^T"]), a)
    # seeded vectors the store holds: v = [1, 2, 3] projected onto the x axis
    assert step(env, "vector_project", name="v", new_vector=[2, 0, 0]).data["result"] == [1.0, 0.0, 0.0]
    assert step(env, "scale_matrix", name="K", scale_factor=3).ok
    assert step(env, "view_tensor", name="K").data["tensor"] == (3 * a).tolist()
    assert step(env, "delete_tensor", name="L").ok and not step(env, "view_tensor", name="L").ok


def test_what_numpy_refuses_is_refused_with_the_reason_and_changes_nothing() -> None:
    env = Environment([build_service(infer_plan(LINALG, "linalg"))], seed=5)
    before = env.state()
    cases = [("create_tensor", {"name": "Q", "shape": [2, 2], "values": [1, 2, 3]}, "cannot reshape 3 values"),
             ("determinant", {"name": "P"}, "square"), ("matrix_inverse", {"name": "S"}, "singular"),
             ("add_matrices", {"name_a": "A", "name_b": "P"}, "differ"), ("multiply_matrices", {"name_a": "P", "name_b": "A"}, "not aligned"),
             ("view_tensor", {"name": "nope"}, "no tensor named 'nope'"), ("vector_project", {"name": "v", "new_vector": [0, 0, 0]}, "zero vector")]
    for name, args, why in cases:
        obs = step(env, name, **args)
        assert not obs.ok and why in (obs.error or ""), (name, obs.error)
    assert env.state() == before


def test_the_tensor_check_passes_numpy_and_catches_a_computation_that_answers_something_else(monkeypatch: Any) -> None:
    plan = infer_plan(LINALG, "linalg")
    passed = {c.tool: c.status for c in check_fidelity(build_service(plan), LINALG) if c.check == "fidelity_tensors"}
    assert set(passed) == {t.name for t in LINALG.tools} and set(passed.values()) == {"pass"}
    from compoworld.synthesis import tensor

    real = tensor._binary
    monkeypatch.setattr(tensor, "_binary", lambda cmd, a, b: real("multiply_matrices" if cmd == "add_matrices" else cmd, a, b))
    broken = plan.model_copy(deep=True)
    broken.version = "1.broken-tensors"
    failed = {c.tool: c.status for c in check_fidelity(build_service(broken), LINALG) if c.check == "fidelity_tensors"}
    assert failed["add_matrices"] == "fail" and failed["multiply_matrices"] == "pass"


def test_adding_matrices_is_arithmetic_and_adding_a_vector_layer_is_a_write() -> None:
    from compoworld.synthesis.fidelity import ToolIntent

    assert ToolIntent(pair("add_matrices", "Adds two stored tensors.")).arith
    assert ToolIntent(tool("change_basis", "Changes the basis of a matrix.", {"name": S, "new_basis": {"type": "array"}})).arith
    layer = ToolIntent(tool("add_vector_layer", "Add a vector layer to the project.", {"path": S, "name": S}))
    assert layer.write and not layer.arith
