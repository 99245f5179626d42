"""Tensor stores of compiled services: a service whose tools create, view and delete named NumPy arrays
and compute with them (the Scientific Computation server's `create_tensor`, `add_matrices`,
`determinant`, `compute_eigen`, `vector_project`...) holds one store of named tensors, and its tools
compute with NumPy what their names say.

Before this, those tools compiled to records of no kind: `subtract_matrices` answered a stored record
("Tooltip", a scale factor), `vector_project` a random value, `rank` a league table.

The store is the same for the same seed: two square matrices, a singular one, a 2x3 matrix and two
3-vectors, named as a user of the server names them (`A`, `B`, `v`...). A computation reads the tensors
its arguments name and changes nothing; only `create_tensor`, `delete_tensor` and an in-place
`scale_matrix` change the store. A name the store does not hold is not found, and a computation the
tensors' shapes do not allow (a determinant of a 2x3 matrix, an inverse of a singular one) is refused
with the reason, as NumPy refuses it. Results are rounded to 10 decimals (signs of decompositions
fixed: R's diagonal and each singular vector's largest entry are non-negative), so they are the same
bytes on every machine.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from compoworld.services.service import Record
from compoworld.services.tool import NotFoundError, ToolError
from compoworld.synthesis.naming import snake
from compoworld.synthesis.plan import EntityPlan, FieldPlan, ToolPlan

TENSORS = "tensors"
TENSOR_NAME_SEM = "tensor_name"  # what a parameter naming a stored tensor takes: samplers pass the store's names

# command -> whether it only reads
COMMANDS: dict[str, bool] = {
    "create_tensor": False, "view_tensor": True, "delete_tensor": False, "list_tensors": True,
    "add_matrices": True, "subtract_matrices": True, "multiply_matrices": True, "scale_matrix": False,
    "matrix_inverse": True, "transpose": True, "determinant": True, "rank": True, "compute_eigen": True,
    "qr_decompose": True, "svd_decompose": True, "find_orthonormal_basis": True, "change_basis": True,
    "vector_project": True, "vector_dot_product": True, "vector_cross_product": True,
}
ALIASES = {"store_tensor": "create_tensor", "get_tensor": "view_tensor", "remove_tensor": "delete_tensor", "add_tensors": "add_matrices",
           "subtract_tensors": "subtract_matrices", "matmul": "multiply_matrices", "inverse": "matrix_inverse", "invert_matrix": "matrix_inverse",
           "eigen": "compute_eigen", "eigenvalues": "compute_eigen", "qr": "qr_decompose", "svd": "svd_decompose",
           "dot_product": "vector_dot_product", "cross_product": "vector_cross_product", "project_vector": "vector_project"}
# the parameters naming stored tensors, in the order a computation takes them
NAME_PARAMS = ("name", "name_a", "name_b", "tensor", "tensor_name", "matrix", "matrix_name", "vector", "vector_name", "a", "b")

# (name, shape, values): the seeded store
SEEDED: list[tuple[str, list[int], list[float]]] = [
    ("A", [2, 2], [4.0, 7.0, 2.0, 6.0]),
    ("B", [2, 2], [1.0, 2.0, 3.0, 4.0]),
    ("M", [3, 3], [2.0, 0.0, 1.0, 1.0, 3.0, 2.0, 1.0, 1.0, 2.0]),
    ("S", [2, 2], [1.0, 2.0, 2.0, 4.0]),
    ("P", [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    ("v", [3], [1.0, 2.0, 3.0]),
    ("w", [3], [4.0, 5.0, 6.0]),
]


def tensor_command(tool_name: str) -> str | None:
    """The command a tool of a tensor store runs (`add_matrices`, `svd` -> svd_decompose), or None."""
    s = snake(tool_name)
    s = ALIASES.get(s, s)
    return s if s in COMMANDS else None


def is_tensor_store(tool_names: list[str]) -> bool:
    """Whether a service's tools are a tensor store's: it creates tensors and computes with at least three
    of the store's computations."""
    cmds = {c for n in tool_names if (c := tensor_command(n))}
    return "create_tensor" in cmds and len(cmds - {"create_tensor", "view_tensor", "delete_tensor", "list_tensors"}) >= 3


def name_params(props: dict[str, Any]) -> list[str]:
    """The parameters naming stored tensors (`name`, or `name_a` and `name_b`), strings only."""
    return [p for want in NAME_PARAMS for p in props if snake(p) == want and (props[p] or {}).get("type") in ("string", None)]


def tensor_entity() -> EntityPlan:
    """The store: each tensor's name, shape and values (flat, in row-major order)."""
    return EntityPlan(collection=TENSORS, entity="tensor", prefix="tens", size=0, topic="tensor", fields=[
        FieldPlan(name="id", shape={"type": "string"}, role="id"),
        FieldPlan(name="name", shape={"type": "string"}, sem=TENSOR_NAME_SEM, role="key"),
        FieldPlan(name="shape", shape={"type": "array", "items": {"type": "integer"}}),
        FieldPlan(name="values", shape={"type": "array", "items": {"type": "number"}}),
    ])


def tensor_output(t: ToolPlan) -> dict[str, Any]:
    return {"type": "object"}


def seed_tensors() -> list[Record]:
    """The store, the same for every seed: a user's worked examples need known matrices."""
    return [{"id": f"tens_{i + 1:04d}", "name": n, "shape": list(s), "values": list(v)} for i, (n, s, v) in enumerate(SEEDED)]


def examples(rows: list[Record], rng: random.Random) -> list[str]:
    return sorted(r["name"] for r in rows)


# -- running a command ---------------------------------------------------------------------------

def run_tensor(svc: Any, t: ToolPlan, args: dict[str, Any]) -> dict[str, Any]:
    """One command on the service's tensor store (its `tensors` table). Nothing changes unless it succeeds."""
    table = svc.db[TENSORS]
    props = t.input_schema.get("properties") or {}
    cmd = t.tensor or ""
    stored = {r["name"]: r for r in table}
    params = name_params(props)
    named = [args.get(p) for p in params]

    def arg(*names: str, default: Any = None) -> Any:
        return next((args[p] for p in props if snake(p) in names and args.get(p) is not None), default)

    def need(i: int = 0) -> tuple[str, np.ndarray]:
        if i >= len(named) or not isinstance(named[i], str) or not named[i]:
            raise ToolError(f"give the name of a stored tensor in '{params[i] if i < len(params) else 'name'}'")
        rec = stored.get(named[i])
        if rec is None:
            raise NotFoundError(f"no tensor named '{named[i]}' in the store (stored: {', '.join(sorted(stored)) or 'none'})")
        return rec["name"], np.array(rec["values"], dtype=float).reshape(rec["shape"])

    if cmd == "list_tensors":
        return {"tensors": [{"name": r["name"], "shape": r["shape"]} for r in sorted(table, key=lambda r: r["name"])]}
    if cmd == "create_tensor":
        name = named[0] if named else None
        if not isinstance(name, str) or not name.strip():
            raise ToolError("give the tensor a name in 'name'")
        shape, values = arg("shape"), arg("values", "data")
        if not isinstance(shape, list) or not shape or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape):
            raise ToolError("'shape' must be a list of positive integers, e.g. [2, 3]")
        if not isinstance(values, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
            raise ToolError("'values' must be a flat list of numbers")
        if math.prod(shape) != len(values):
            raise ToolError(f"cannot reshape {len(values)} values into shape {tuple(shape)} ({math.prod(shape)} needed)")
        row = {"name": name, "shape": list(shape), "values": [float(x) for x in values]}
        if name in stored:  # the store is a dictionary: a name given again holds the new tensor
            table.update(stored[name]["id"], shape=row["shape"], values=row["values"])
        else:
            table.insert(row)
        return {"name": name, "shape": list(shape), "tensor": _out(np.array(row["values"]).reshape(shape))}
    if cmd == "view_tensor":
        name, a = need()
        return {"name": name, "shape": list(a.shape), "tensor": _out(a)}
    if cmd == "delete_tensor":
        name, _ = need()
        table.delete(stored[name]["id"])
        return {"deleted": name, "remaining": sorted(n for n in stored if n != name)}
    if cmd in ("add_matrices", "subtract_matrices", "multiply_matrices", "vector_dot_product", "vector_cross_product"):
        (na, a), (nb, b) = need(0), need(1)
        return {"name_a": na, "name_b": nb, "result": _out(_binary(cmd, a, b))}
    if cmd == "scale_matrix":
        name, a = need()
        factor = arg("scale_factor", "factor", "scalar", "scale")
        if not isinstance(factor, (int, float)) or isinstance(factor, bool):
            raise ToolError("'scale_factor' must be a number")
        scaled = a * float(factor)
        in_place = arg("in_place", default=(props.get("in_place") or {}).get("default", True))
        if in_place:
            table.update(stored[name]["id"], values=[float(x) for x in scaled.reshape(-1)])
        return {"name": name, "in_place": bool(in_place), "result": _out(scaled)}
    if cmd == "change_basis":
        name, a = need()
        basis = arg("new_basis", "basis")
        p = _matrix_arg(basis, "new_basis")
        _square(a, name)
        if p.shape != a.shape:
            raise ToolError(f"the new basis is {p.shape[0]}x{p.shape[1]}; '{name}' is {a.shape[0]}x{a.shape[1]}")
        if abs(np.linalg.det(p)) < 1e-12:
            raise ToolError("the new basis vectors are linearly dependent: no basis")
        return {"name": name, "result": _out(np.linalg.inv(p) @ a @ p)}
    if cmd == "vector_project":
        name, a = need()
        onto = _vector_arg(arg("new_vector", "onto", "vector_b", "target"), "new_vector")
        if a.ndim != 1 or a.shape != onto.shape:
            raise ToolError(f"'{name}' has shape {tuple(a.shape)}; the vector to project onto has {tuple(onto.shape)}")
        if not onto.any():
            raise ToolError("cannot project onto the zero vector")
        return {"name": name, "result": _out((a @ onto) / (onto @ onto) * onto)}
    name, a = need()
    return {"name": name, **_unary(cmd, name, a)}


def _binary(cmd: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if cmd in ("add_matrices", "subtract_matrices"):
        if a.shape != b.shape:
            raise ToolError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} differ: element-wise {'addition' if cmd == 'add_matrices' else 'subtraction'} needs equal shapes")
        return a + b if cmd == "add_matrices" else a - b
    if cmd == "multiply_matrices":
        if a.ndim == 0 or b.ndim == 0 or a.shape[-1] != b.shape[0]:
            raise ToolError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} not aligned: {a.shape[-1] if a.ndim else 0} (dim {a.ndim - 1}) != {b.shape[0] if b.ndim else 0} (dim 0)")
        return a @ b
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ToolError(f"both must be vectors of one length; shapes are {tuple(a.shape)} and {tuple(b.shape)}")
    if cmd == "vector_dot_product":
        return np.array(a @ b)
    if a.shape[0] != 3:
        raise ToolError(f"a cross product needs 3-dimensional vectors; these have {a.shape[0]} components")
    return np.cross(a, b)


def _unary(cmd: str, name: str, a: np.ndarray) -> dict[str, Any]:
    if cmd == "transpose":
        return {"result": _out(a.T)}
    if cmd == "rank":
        return {"rank": int(np.linalg.matrix_rank(a)) if a.ndim <= 2 else _out(np.linalg.matrix_rank(a))}
    if a.ndim != 2:
        raise ToolError(f"'{name}' has shape {tuple(a.shape)}: this needs a matrix")
    if cmd == "qr_decompose":
        q, r = _qr(a)
        return {"Q": _out(q), "R": _out(r)}
    if cmd == "find_orthonormal_basis":
        q, r = _qr(a)
        rank = int(np.linalg.matrix_rank(a))
        keep = [i for i in range(min(r.shape)) if abs(r[i, i]) > 1e-10][:rank]
        return {"basis": [_out(q[:, i]) for i in keep]}
    if cmd == "svd_decompose":
        u, s, vt = np.linalg.svd(a)
        for i in range(len(s)):  # the sign of each singular pair is free: its left vector's largest entry is positive
            if u[np.argmax(np.abs(u[:, i])), i] < 0:
                u[:, i], vt[i, :] = -u[:, i], -vt[i, :]
        return {"U": _out(u), "S": _out(s), "V^T": _out(vt)}
    _square(a, name)
    if cmd == "determinant":
        return {"determinant": _num(float(np.linalg.det(a)))}
    if cmd == "matrix_inverse":
        if abs(np.linalg.det(a)) < 1e-12:
            raise ToolError(f"'{name}' is singular (its determinant is 0): no inverse")
        return {"result": _out(np.linalg.inv(a))}
    if cmd == "compute_eigen":
        vals, vecs = np.linalg.eig(a)
        order = sorted(range(len(vals)), key=lambda i: (-vals[i].real, -vals[i].imag))
        vals, vecs = vals[order], vecs[:, order]
        for i in range(vecs.shape[1]):  # an eigenvector's sign is free: its largest entry is positive
            j = int(np.argmax(np.abs(vecs[:, i])))
            if vecs[j, i].real < 0:
                vecs[:, i] = -vecs[:, i]
        return {"eigenvalues": _out(vals), "eigenvectors": _out(vecs)}
    raise ToolError(f"unknown command {cmd!r}")


def _qr(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    q, r = np.linalg.qr(a)
    signs = np.where(np.diag(r) < 0, -1.0, 1.0)  # R's diagonal non-negative: the decomposition is unique then
    return q * signs, (r.T * signs).T


def _square(a: np.ndarray, name: str) -> None:
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ToolError(f"'{name}' has shape {tuple(a.shape)}: this needs a square matrix")


def _matrix_arg(value: Any, param: str) -> np.ndarray:
    if not isinstance(value, list) or not value or not all(isinstance(r, list) and r and len(r) == len(value[0]) for r in value) \
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for r in value for x in r):
        raise ToolError(f"'{param}' must be a matrix: a list of equally long lists of numbers")
    return np.array(value, dtype=float)


def _vector_arg(value: Any, param: str) -> np.ndarray:
    if not isinstance(value, list) or not value or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
        raise ToolError(f"'{param}' must be a list of numbers")
    return np.array(value, dtype=float)


def _num(x: float) -> float:
    r = round(x, 10)
    return 0.0 if r == 0 else r  # no -0.0: the same bytes whatever the sign of a rounding error


def _out(a: Any) -> Any:
    """A NumPy result as JSON: nested lists of numbers; a complex number as {"real", "imag"} unless real."""
    arr = np.asarray(a)
    if arr.ndim == 0:
        x = arr.item()
        if isinstance(x, complex):
            return _num(x.real) if abs(x.imag) < 1e-12 else {"real": _num(x.real), "imag": _num(x.imag)}
        return _num(float(x))
    return [_out(x) for x in arr]
