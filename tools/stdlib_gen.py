#!/usr/bin/env python3
"""Writes the move lines of the geometric puzzles in stdlib/ from 3-D models.

The cubes, the Pyraminx, the Skewb and the Megaminx are modelled as pieces with
stickers (a position and one outward normal per sticker).  A move is a rotation of the
pieces on one side of a plane; the cycles of locations and the orientation changes are
read off the rotated stickers, so no cycle is typed by hand.

Conventions (the same in every generated file):
- A location's stickers are listed from its primary face (U/D first on the cubes, then
  F/B); for pieces with three stickers the rest follow anticlockwise seen from outside,
  which is the order of the corner names UFR, URB, ... .  A piece's orientation at a
  location is the index of the sticker its primary sticker now lies on.
- Moves turn clockwise, seen from outside, looking at the face or vertex named.

Usage: python3 tools/stdlib_gen.py NAME   (prints `orbit` and `move` lines for NAME:
cube3, cube4, pyraminx, skewb, megaminx, lightsout, clock, topspin); the .puz files carry
these lines below their hand-written headers.  `python3 tools/stdlib_gen.py --check`
says whether every file still holds exactly what the generator makes.  tools/stdlib_check.py checks the files
on their own, without this script.
"""

import math
import os
import sys

EPS = 1e-6


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def scale(k, a):
    return tuple(k * x for x in a)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def det(a, b, c):
    return dot(a, cross(b, c))


def norm(a):
    n = math.sqrt(dot(a, a))
    return tuple(x / n for x in a)


def close(a, b):
    return all(abs(x - y) < EPS for x, y in zip(a, b))


def rotate(v, axis, angle):
    """Rodrigues: v turned by `angle` (right-hand rule) about the unit vector `axis`."""
    c, s = math.cos(angle), math.sin(angle)
    k = axis
    kv = cross(k, v)
    kd = dot(k, v)
    return tuple(v[i] * c + kv[i] * s + k[i] * kd * (1 - c) for i in range(3))


class Location:
    def __init__(self, name, pos, normals):
        self.name = name
        self.pos = pos
        self.normals = normals  # ordered: primary first, then anticlockwise


class OrbitModel:
    def __init__(self, name, twist, locations):
        self.name = name
        self.twist = twist
        self.locs = locations


def order_normals(pos, normals, primary):
    """Primary first; with three or more stickers the rest anticlockwise seen from outside."""
    first = primary
    rest = [n for n in normals if n is not first and not close(n, first)]
    if len(rest) <= 1:
        return [first] + rest
    # anticlockwise around the outward direction `pos`
    out = norm(pos)
    ref = sub(first, scale(dot(first, out), out))

    def angle(n):
        v = sub(n, scale(dot(n, out), out))
        return math.atan2(dot(out, cross(ref, v)), dot(ref, v)) % (2 * math.pi)

    return [first] + sorted(rest, key=angle)


def move_cycles(orbit, axis, angle, selected):
    """The cycles `(a+i b+j ...)` of one orbit for the rotation of the selected locations."""
    images = {}
    for idx, loc in enumerate(orbit.locs):
        if not selected(loc.pos):
            continue
        p2 = rotate(loc.pos, axis, angle)
        target = [j for j, l2 in enumerate(orbit.locs) if close(l2.pos, p2)]
        assert len(target) == 1, (orbit.name, loc.name)
        b = orbit.locs[target[0]]
        # where each sticker of `loc` lands among the stickers of `b`
        lands = []
        for n in loc.normals:
            n2 = rotate(n, axis, angle)
            m = [j for j, nb in enumerate(b.normals) if close(nb, n2)]
            assert len(m) == 1, (orbit.name, loc.name, b.name)
            lands.append(m[0])
        k = len(loc.normals)
        inc = lands[0] % max(orbit.twist, 1)
        if orbit.twist > 1:
            for j in range(k):
                assert lands[j] == (j + lands[0]) % k, ("not a twist", orbit.name, loc.name)
        else:
            assert k == 1 or all(lands[j] == j for j in range(k)), (
                "orientation change on an orbit without twist",
                orbit.name,
                loc.name,
            )
        images[idx] = (target[0], inc)
    seen = set()
    out = []
    for start in range(len(orbit.locs)):
        if start not in images or start in seen:
            continue
        cyc = []
        a = start
        while a not in seen:
            seen.add(a)
            b, inc = images[a]
            cyc.append((a, inc))
            a = b
        if len(cyc) == 1 and cyc[0][1] == 0:
            continue
        out.append(cyc)
    return out


def fmt_cycles(orbit, cycles):
    parts = []
    for cyc in cycles:
        elems = []
        for a, inc in cyc:
            name = orbit.locs[a].name
            elems.append(f"{name}+{inc}" if inc else name)
        parts.append("(" + " ".join(elems) + ")")
    return orbit.name + "".join(parts) if parts else ""


def emit_move(name, orbits, axis, angle, selected):
    text = []
    for o in orbits:
        c = move_cycles(o, axis, angle, selected)
        s = fmt_cycles(o, c)
        if s:
            text.append(s)
    return f"move {name} = " + " ".join(text)


def emit_orbits(orbits, per_line=8):
    lines = []
    for o in orbits:
        names = [l.name for l in o.locs]
        tw = f" twist {o.twist}" if o.twist > 1 else ""
        if len(names) <= per_line:
            lines.append(f"orbit {o.name} [{' '.join(names)}]{tw}")
        else:
            rows = [" ".join(names[i : i + per_line]) for i in range(0, len(names), per_line)]
            lines.append(f"orbit {o.name} [\n    " + "\n    ".join(rows) + f"\n  ]{tw}")
    return lines


# ---------------------------------------------------------------- cubes
FACE = {(1, 0, 0): "R", (-1, 0, 0): "L", (0, 1, 0): "U", (0, -1, 0): "D", (0, 0, 1): "F", (0, 0, -1): "B"}
FACE_N = {v: k for k, v in FACE.items()}
PRIORITY = "UDFBRL"


def cube_model(n):
    """Orbits of the n x n x n cube: corners, edges (n=3) or wings (n=4), centres."""
    m = n - 1
    coords = range(-m, m + 1, 2)
    corners, edges, centres = [], [], []
    for x in coords:
        for y in coords:
            for z in coords:
                p = (x, y, z)
                normals = []
                for i in range(3):
                    if abs(p[i]) == m:
                        v = [0, 0, 0]
                        v[i] = 1 if p[i] > 0 else -1
                        normals.append(tuple(v))
                if not normals:
                    continue
                faces = sorted((FACE[v] for v in normals), key=PRIORITY.index)
                prim = FACE_N[faces[0]]
                ordered = order_normals(p, normals, prim)
                if len(normals) == 3:
                    name = "".join(FACE[v] for v in ordered)
                    corners.append(Location(name, p, ordered))
                elif len(normals) == 2:
                    name = "".join(FACE[v] for v in ordered)
                    if n == 4:
                        # the wing's free coordinate says which end of the edge it is near
                        i = next(i for i in range(3) if abs(p[i]) != m)
                        v = [0, 0, 0]
                        v[i] = 1 if p[i] > 0 else -1
                        name += FACE[tuple(v)].lower()
                        # wings cannot flip in place: order stickers by handedness
                        if det(ordered[0], ordered[1], p) < 0:
                            ordered = [ordered[1], ordered[0]]
                    edges.append(Location(name, p, ordered))
                else:
                    name = FACE[normals[0]]
                    if n == 4:
                        rest = []
                        for i in range(3):
                            if abs(p[i]) != m:
                                v = [0, 0, 0]
                                v[i] = 1 if p[i] > 0 else -1
                                rest.append(FACE[tuple(v)])
                        rest.sort(key=PRIORITY.index)
                        name += "".join(r.lower() for r in rest)
                    centres.append(Location(name, p, ordered))
    corner_order = ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"]
    corners.sort(key=lambda l: corner_order.index(l.name))
    if n == 3:
        edge_order = ["UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL"]
        edges.sort(key=lambda l: edge_order.index(l.name))
        centres.sort(key=lambda l: PRIORITY.index(l.name))
        return [
            OrbitModel("corners", 3, corners),
            OrbitModel("edges", 2, edges),
            OrbitModel("centres", 1, centres),
        ]
    edge_order = ["UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL"]
    edges.sort(key=lambda l: (edge_order.index(l.name[:2]), l.name))
    centres.sort(key=lambda l: (PRIORITY.index(l.name[0]), l.name))
    return [
        OrbitModel("corners", 3, corners),
        OrbitModel("wings", 1, edges),
        OrbitModel("centres", 1, centres),
    ]


def cube_moves(n, orbits):
    m = n - 1
    lines = []
    for face in "UDFBLR":
        v = FACE_N[face]
        lines.append(emit_move(face, orbits, v, -math.pi / 2, lambda p, v=v: dot(p, v) == m))
    if n == 3:
        # slices: M follows L, E follows D, S follows F
        for name, face in (("M", "L"), ("E", "D"), ("S", "F")):
            v = FACE_N[face]
            lines.append(emit_move(name, orbits, v, -math.pi / 2, lambda p, v=v: dot(p, v) == 0))
    if n == 4:
        for face in "UDFBLR":
            v = FACE_N[face]
            lines.append(
                emit_move(face.lower(), orbits, v, -math.pi / 2, lambda p, v=v: dot(p, v) == m - 2)
            )
    return lines


# ---------------------------------------------------------------- skewb
def skewb():
    corners, centres = cube_model(3)[0], cube_model(3)[2]
    orbits = [corners, centres]
    lines = emit_orbits(orbits)
    # the four moving axes: one tetrad of corners, each turned clockwise seen from outside
    for name, corner in (("F", "UFR"), ("U", "UBL"), ("L", "DFL"), ("R", "DBR")):
        c = next(l for l in corners.locs if l.name == corner)
        axis = norm(c.pos)
        lines.append(emit_move(name, orbits, axis, -2 * math.pi / 3, lambda p, c=c: dot(p, c.pos) > 0))
    return lines


# ---------------------------------------------------------------- pyraminx
def pyraminx():
    verts = {"U": (1, 1, 1), "L": (1, -1, -1), "R": (-1, 1, -1), "B": (-1, -1, 1)}
    # U, L, R must run anticlockwise seen from outside the face they span (opposite B)
    u, l, r, b = (verts[k] for k in "ULRB")
    if dot(cross(sub(l, u), sub(r, u)), scale(-1, b)) < 0:
        verts["L"], verts["R"] = verts["R"], verts["L"]
    fnorm = {k: scale(-1, v) for k, v in verts.items()}  # face opposite vertex k
    order = "ULRB"
    tips, axials, edges = [], [], []
    for k in order:
        v = verts[k]
        normals = [fnorm[w] for w in order if w != k]
        # primary sticker: the face opposite the next vertex in U L R B order
        prim = fnorm[[w for w in order if w != k][0]]
        tips.append(Location(k, scale(0.9, v), order_normals(v, normals, prim)))
        axials.append(Location(k, scale(0.5, v), order_normals(v, normals, prim)))
    for i, k in enumerate(order):
        for w in order[i + 1 :]:
            mid = scale(0.5, add(verts[k], verts[w]))
            others = [x for x in order if x not in (k, w)]
            normals = [fnorm[x] for x in others]
            edges.append(Location(k + w, mid, normals))
    orbits = [
        OrbitModel("edges", 2, edges),
        OrbitModel("centres", 3, axials),
        OrbitModel("tips", 3, tips),
    ]
    lines = emit_orbits(orbits)
    for k in order:
        v = verts[k]
        axis = norm(v)
        lines.append(emit_move(k, orbits, axis, -2 * math.pi / 3, lambda p, v=v: dot(p, v) > 0))
    for k in order:
        v = verts[k]
        axis = norm(v)
        lines.append(
            emit_move(k.lower(), orbits, axis, -2 * math.pi / 3, lambda p, v=v: dot(p, v) > 2.5)
        )
    return lines


# ---------------------------------------------------------------- megaminx
def megaminx():
    phi = (1 + math.sqrt(5)) / 2
    normals = []
    for s1 in (1, -1):
        for s2 in (1, -1):
            normals += [norm((0, s1, s2 * phi)), norm((s1, s2 * phi, 0)), norm((s1 * phi, 0, s2))]
    up = norm((0, 1, phi))
    ring = [n for n in normals if abs(dot(n, up) - 1 / math.sqrt(5)) < EPS]
    assert len(ring) == 5
    front = max(ring, key=lambda n: n[2] - n[0])  # any one of them
    ref = sub(front, scale(dot(front, up), up))

    def ang(n):
        v = sub(n, scale(dot(n, up), up))
        return math.atan2(dot(up, cross(ref, v)), dot(ref, v)) % (2 * math.pi)

    ring.sort(key=ang)  # anticlockwise seen from above: F, R, BR, BL, L
    names = {}
    names[up] = "U"
    names[scale(-1, up)] = "D"
    for nm, n in zip(["F", "R", "BR", "BL", "L"], ring):
        names[n] = nm
    opposite = {"F": "B", "R": "DBL", "BR": "DL", "BL": "DR", "L": "DBR"}
    for nm, n in zip(["F", "R", "BR", "BL", "L"], ring):
        names[scale(-1, n)] = opposite[nm]
    faces = [(names[k], k) for k in names]
    priority = ["U", "D", "F", "R", "BR", "BL", "L", "DR", "DBR", "B", "DBL", "DL"]
    faces.sort(key=lambda f: priority.index(f[0]))
    adj = 1 / math.sqrt(5)

    def face_of(n):
        return next(f for f in faces if close(f[1], n))[0]

    corners, edges = [], []
    fl = [f[1] for f in faces]
    for i in range(12):
        for j in range(i + 1, 12):
            if abs(dot(fl[i], fl[j]) - adj) > EPS:
                continue
            pos = norm(add(fl[i], fl[j]))
            ns = [fl[i], fl[j]]
            edges.append(Location("_".join(face_of(n) for n in ns), pos, ns))
            for k in range(j + 1, 12):
                if abs(dot(fl[i], fl[k]) - adj) > EPS or abs(dot(fl[j], fl[k]) - adj) > EPS:
                    continue
                pos3 = norm(add(add(fl[i], fl[j]), fl[k]))
                ordered = order_normals(pos3, [fl[i], fl[j], fl[k]], fl[i])
                corners.append(Location("_".join(face_of(n) for n in ordered), pos3, ordered))
    assert len(corners) == 20 and len(edges) == 30
    orbits = [OrbitModel("corners", 3, corners), OrbitModel("edges", 2, edges)]
    lines = emit_orbits(orbits, per_line=6)
    for nm, n in faces:
        lines.append(emit_move(nm, orbits, n, -2 * math.pi / 5, lambda p, n=n: dot(p, n) > 0.7))
    # WCA scrambles (Pochmann): R++ turns everything but the L face two fifths, clockwise
    # seen from the right (anticlockwise about L's axis); D++ everything but the U face,
    # clockwise seen from below.
    axis = dict(faces)
    for nm, held in (("R++", "L"), ("D++", "U")):
        n = axis[held]
        lines.append(emit_move(nm, orbits, n, 4 * math.pi / 5, lambda p, n=n: dot(p, n) < 0.7))
    return lines


# ---------------------------------------------------------------- abelian and flat ones
def lightsout():
    cols, rows = "abcde", "12345"
    names = [c + r for r in rows for c in cols]
    lines = ["orbit lights [", *("    " + " ".join(c + r for c in cols) for r in rows), "  ] twist 2"]
    for r in range(5):
        for c in range(5):
            hit = [(r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            hit = [(a, b) for a, b in hit if 0 <= a < 5 and 0 <= b < 5]
            body = "".join(f"({cols[b]}{rows[a]}+1)" for a, b in hit)
            lines.append(f"move {cols[c]}{rows[r]} = lights{body}")
    assert len(names) == 25
    return lines


def clock():
    front = ["UL", "U", "UR", "L", "C", "R", "DL", "D", "DR"]
    # the back's dials, named as seen from the back (after y2): its left is the front's right
    back = ["b" + d for d in front]
    # a corner dial and the back dial at the same spot are one gear: turned +1 from one side,
    # the other reads -1 more
    twin = {"UL": "bUR", "UR": "bUL", "DL": "bDR", "DR": "bDL"}
    twin.update({b: f for f, b in list(twin.items())})
    regions = {
        "UR": ["U", "UR", "C", "R"],
        "DR": ["C", "R", "D", "DR"],
        "DL": ["L", "C", "DL", "D"],
        "UL": ["UL", "U", "L", "C"],
        "U": ["UL", "U", "UR", "L", "C", "R"],
        "R": ["U", "UR", "C", "R", "D", "DR"],
        "D": ["L", "C", "R", "DL", "D", "DR"],
        "L": ["UL", "U", "L", "C", "DL", "D"],
        "ALL": front,
    }

    def turn(dials):
        out = [f"({d}+1)" for d in dials]
        out += [f"({twin[d]}-1)" for d in dials if d in twin]
        return "dials" + "".join(out)

    lines = ["orbit dials [", "    " + " ".join(front), "    " + " ".join(back), "  ] twist 12"]
    for m in ["UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL"]:
        lines.append(f"move {m} = " + turn(regions[m]))
    for m in ["U", "R", "D", "L", "ALL"]:
        lines.append(f"move b{m} = " + turn(["b" + d for d in regions[m]]))
    # WCA y2: the puzzle turned over about the vertical axis, front and back dials swap
    lines.append("move y2 = dials" + "".join(f"({f} {b})" for f, b in zip(front, back)))
    return lines


def topspin():
    return [
        "orbit discs 20",
        "move S = discs(" + " ".join(str(i) for i in range(20)) + ")",
        "move T = discs(0 3)(1 2)",
    ]


NAMES = ["cube3", "cube4", "pyraminx", "skewb", "megaminx", "lightsout", "clock", "topspin"]


def lines_for(which):
    if which in ("cube3", "cube4"):
        n = int(which[-1])
        orbits = cube_model(n)
        return emit_orbits(orbits) + cube_moves(n, orbits)
    return globals()[which]()


def main():
    if sys.argv[1:] == ["--check"]:
        # every generated block must stand, indented, in its stdlib file
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stdlib")
        bad = 0
        for name in NAMES:
            text = "\n".join(lines_for(name))
            block = "".join("  " + l + "\n" for l in text.split("\n"))
            ok = block in open(os.path.join(root, name + ".puz")).read()
            print(f"{name}: {'matches' if ok else 'DIFFERS from the generator'}")
            bad += not ok
        sys.exit(1 if bad else 0)
    for line in lines_for(sys.argv[1]):
        print(line)


if __name__ == "__main__":
    main()
