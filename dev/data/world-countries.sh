#!/usr/bin/env bash
# Regenerates layers/src/main/resources/layers/world/countries.geojson, the bundled
# `world` layer: Natural Earth admin-0 countries at 1:50m (public domain), taken from
# the npm package world-atlas (countries-50m.json, TopoJSON) and converted to GeoJSON.
#
# Not part of the build: the generated file is committed. This script documents how it
# was made and reproduces it. Needs node and npm with access to the npm registry.
#
# Output: a compact FeatureCollection, properties {"name": ...} only, Polygon or
# MultiPolygon geometries in lon/lat (CRS84), coordinates rounded to 4 decimals,
# consecutive duplicate points dropped, rings with fewer than 4 points or zero area
# dropped (a polygon whose outer ring is dropped is dropped whole). Ring order and
# winding are kept as they come.
#
# Planar, not spherical: world-atlas stores spherical polygons (for d3-geo), so a few
# rings cross the antimeridian without being cut (Russia's mainland and Wrangel Island,
# one Fijian island) and Antarctica's coast encircles the South Pole. Drawn on a flat
# lon/lat or Mercator plane those come out as bands around the world. So every polygon
# with a ring that jumps across +-180 is rebuilt: rings with zero planar area are dropped
# (Antarctica's ring along the parallel -89.999), the remaining ring's longitudes are
# unwrapped to be continuous; if it then encircles a pole it is closed along the
# antimeridian and the pole; the result is cut at the antimeridian into pieces, each
# shifted into [-180, 180], with exact +-180 points inserted (same interpolated
# latitude on both sides) where the ring is cut. Each piece becomes its own polygon.
# All output edges stay within [-180, 180] and none jumps across the antimeridian.
set -euo pipefail

WORLD_ATLAS_VERSION=2.0.2
TOPOJSON_CLIENT_VERSION=3.1.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/layers/src/main/resources/layers/world/countries.geojson"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
echo '{"private": true}' > package.json
npm install --no-audit --no-fund --no-package-lock --ignore-scripts --loglevel=error \
  "world-atlas@$WORLD_ATLAS_VERSION" "topojson-client@$TOPOJSON_CLIENT_VERSION"

mkdir -p "$(dirname "$out")"
node - "$tmp/countries.geojson" <<'JS'
'use strict';
const fs = require('fs');
const path = require('path');
const topojson = require('topojson-client');

const dest = process.argv[2];
const src = path.join(path.dirname(require.resolve('world-atlas/package.json')), 'countries-50m.json');
const topology = JSON.parse(fs.readFileSync(src, 'utf8'));

const round = (v) => {
  const r = Math.round(v * 1e4) / 1e4;
  return r === 0 ? 0 : r; // no -0
};
// Twice the largest area (in square degrees) a ring may have and still count as zero area.
// The smallest real island at 4 decimals is far larger (about 1.7e-4).
const ZERO_AREA2 = 1e-8;
const stats = { droppedRings: 0, droppedPolygons: 0, droppedFeatures: [], cutRings: [], cutPieces: 0 };

const samePoint = (a, b) => a[0] === b[0] && a[1] === b[1];
// Appends p unless it equals the last point.
function pushPoint(points, p) {
  const last = points[points.length - 1];
  if (!last || !samePoint(last, p)) points.push(p);
}
// Twice the signed planar area of a closed ring (shoelace formula).
function area2(r) {
  let s = 0;
  for (let i = 0; i + 1 < r.length; i++) s += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
  return s;
}
const zeroArea = (r) => Math.abs(area2(r)) < ZERO_AREA2;
// True if an edge of the ring goes the long way round, i.e. crosses the antimeridian.
const jumps = (a, b) => Math.abs(b[0] - a[0]) > 180;

// Rounds a ring, drops consecutive duplicates; returns null if fewer than 4 points remain
// or the ring has zero area.
function ring(coords) {
  const outRing = [];
  for (const [x, y] of coords) pushPoint(outRing, [round(x), round(y)]);
  // Keep it closed (rounding cannot open a closed ring, but be safe).
  const first = outRing[0], last = outRing[outRing.length - 1];
  if (first && !samePoint(first, last)) outRing.push([first[0], first[1]]);
  if (outRing.length < 4 || zeroArea(outRing)) { stats.droppedRings++; return null; }
  return outRing;
}

// Polygon rings -> rounded rings, or null if the outer ring degenerates.
function polygon(rings) {
  const outer = ring(rings[0]);
  if (!outer) { stats.droppedPolygons++; return null; }
  const result = [outer];
  for (const hole of rings.slice(1)) {
    const r = ring(hole);
    if (r) result.push(r);
  }
  return result;
}

// --- Cutting at the antimeridian -------------------------------------------------------

// The point where segment a-b crosses the vertical line x = c. Computed from the endpoints
// in x order, so that the pieces on either side of a cut get the very same point.
function crossing(a, b, c) {
  if (a[0] === c) return [c, a[1]];
  if (b[0] === c) return [c, b[1]];
  const [p, q] = a[0] < b[0] ? [a, b] : [b, a];
  return [c, p[1] + (q[1] - p[1]) * (c - p[0]) / (q[0] - p[0])];
}

// Clips a simple closed ring to the half-plane x <= c (side 1) or x >= c (side -1).
// Returns closed rings (possibly several, possibly none). The ring is cut into chains
// that run inside the half-plane from one point on the line to another; along the line
// the crossing points, sorted by latitude, bound alternately inside and outside
// stretches, so each chain's end is joined to the start of the chain it shares an inside
// stretch with.
function clipHalfPlane(closed, c, side) {
  const keep = (p) => side * (p[0] - c) <= 0;
  const n = closed.length - 1; // distinct points
  let s = -1;
  for (let i = 0; i < n; i++) if (!keep(closed[i])) { s = i; break; }
  if (s < 0) return [closed];
  const chains = [];
  let cur = null;
  for (let i = 0; i < n; i++) {
    const a = closed[(s + i) % n], b = closed[(s + i + 1) % n];
    const ka = keep(a), kb = keep(b);
    if (!ka && kb) { cur = [crossing(a, b, c)]; pushPoint(cur, b); }
    else if (ka && kb) pushPoint(cur, b);
    else if (ka && !kb) { pushPoint(cur, crossing(a, b, c)); chains.push(cur); cur = null; }
  }
  // A chain lying wholly on the line (the ring only touches it) encloses nothing; its two
  // ends are neighbours along the line, so dropping it leaves the pairing below intact.
  const live = chains.filter((ch) => ch.some((p) => p[0] !== c));
  if (live.length === 0) return [];
  const ends = [];
  live.forEach((ch, i) => {
    ends.push({ y: ch[0][1], chain: i, entry: true });
    ends.push({ y: ch[ch.length - 1][1], chain: i, entry: false });
  });
  ends.sort((u, v) => u.y - v.y);
  const next = new Array(live.length);
  for (let i = 0; i < ends.length; i += 2) {
    const u = ends[i], v = ends[i + 1];
    if (u.y === v.y || ends[i + 2] && ends[i + 2].y === v.y || u.entry === v.entry) {
      throw new Error(`cannot pair crossings at x=${c} near latitude ${u.y}`);
    }
    const exit = u.entry ? v : u, entry = u.entry ? u : v;
    next[exit.chain] = entry.chain;
  }
  const out = [];
  const used = new Array(live.length).fill(false);
  for (let i = 0; i < live.length; i++) {
    if (used[i]) continue;
    const r = [];
    for (let j = i; !used[j]; j = next[j]) {
      used[j] = true;
      for (const p of live[j]) pushPoint(r, p);
    }
    pushPoint(r, r[0]);
    if (r.length >= 4) out.push(r);
  }
  return out;
}

// Cuts a closed ring with continuous longitudes (possibly beyond +-180) at the lines
// x = 180 + 360k, and shifts every piece into [-180, 180].
function cutAtAntimeridian(closed) {
  const xs = closed.map((p) => p[0]);
  const kMin = Math.floor((Math.min(...xs) + 180) / 360);
  const kMax = Math.ceil((Math.max(...xs) + 180) / 360) - 1;
  const pieces = [];
  for (let k = kMin; k <= kMax; k++) {
    const west = -180 + 360 * k, east = 180 + 360 * k;
    for (const a of clipHalfPlane(closed, west, -1)) {
      for (const b of clipHalfPlane(a, east, 1)) {
        pieces.push(k === 0 ? b : b.map(([x, y]) => [x - 360 * k, y]));
      }
    }
  }
  return pieces;
}

// Rebuilds a spherical polygon that has a ring crossing the antimeridian as planar
// polygons within [-180, 180]. Returns a list of polygons (lists of rings).
function planarPolygons(rings, name) {
  const kept = rings.filter((r) => !zeroArea(r));
  stats.droppedRings += rings.length - kept.length;
  if (kept.length !== 1) {
    throw new Error(`${name}: ${kept.length} rings in a polygon crossing the antimeridian; ` +
      'only a single ring is supported');
  }
  // Distinct points (source rings are closed: last point repeats the first).
  const pts = kept[0].slice(0, -1);
  const n = pts.length;
  const unwrap = (from) => {
    const out = [pts[from].slice()];
    for (let i = 1; i < n; i++) {
      const p = pts[(from + i) % n], prev = out[i - 1];
      let x = p[0];
      while (x - prev[0] > 180) x -= 360;
      while (x - prev[0] < -180) x += 360;
      out.push([x, p[1]]);
    }
    return out;
  };
  let closed = unwrap(0);
  // Net change of longitude once round the ring: 0, or +-360 if it encircles a pole.
  const last = closed[n - 1];
  let net = pts[0][0] - last[0];
  while (net > 180) net -= 360;
  while (net < -180) net += 360;
  net = last[0] + net - pts[0][0];
  if (net === 0) {
    closed.push(closed[0].slice());
  } else if (Math.abs(net) === 360) {
    // Encircles a pole: the pole on the ring's side of the equator. Start the ring at the
    // antimeridian crossing nearest that pole, then close it down the antimeridian to the
    // pole, along the pole and back up the antimeridian on the other side.
    const pole = pts.reduce((sum, p) => sum + p[1], 0) < 0 ? -90 : 90;
    let best = null;
    for (let i = 0; i < n; i++) {
      const a = pts[i], b = pts[(i + 1) % n];
      if (!jumps(a, b)) continue;
      const bx = b[0] + (b[0] < a[0] ? 360 : -360);
      const c = a[0] < bx ? 180 : -180;
      const y = crossing(a, [bx, b[1]], c)[1];
      if (!best || Math.abs(pole - y) < Math.abs(pole - best.y)) best = { i, y };
    }
    closed = unwrap((best.i + 1) % n);
    const end = closed[n - 1];
    const back = [closed[0][0] + net, closed[0][1]]; // the first point, one turn later
    const lo = Math.min(end[0], back[0]), hi = Math.max(end[0], back[0]);
    const c = 180 + 360 * Math.floor((hi - 180) / 360);
    if (c < lo) throw new Error(`${name}: no antimeridian crossing found`);
    const y = crossing(end, back, c)[1];
    const r = [[c - net, y]];
    for (const p of closed) pushPoint(r, p);
    pushPoint(r, [c, y]);
    // Along the pole in steps of 90 degrees, so that no edge spans more than 180 degrees
    // of longitude (which readers commonly take for an antimeridian crossing).
    for (let q = 0; q <= 4; q++) pushPoint(r, [c - net * q / 4, pole]);
    pushPoint(r, r[0]);
    closed = r;
  } else {
    throw new Error(`${name}: ring winds ${net} degrees round the pole`);
  }
  const pieces = cutAtAntimeridian(closed);
  // The pieces must add up to the uncut polygon, or the cut went wrong.
  const whole = Math.abs(area2(closed));
  const sum = pieces.reduce((acc, r) => acc + Math.abs(area2(r)), 0);
  if (Math.abs(sum - whole) > 1e-9 * whole) {
    throw new Error(`${name}: cut pieces have area ${sum / 2}, the ring ${whole / 2}`);
  }
  stats.cutRings.push(name);
  stats.cutPieces += pieces.length;
  return pieces.map((r) => [r]);
}

// --- Conversion -------------------------------------------------------------------------

const fc = topojson.feature(topology, topology.objects.countries);
const features = [];
for (const f of fc.features) {
  const name = f.properties && f.properties.name;
  const g = f.geometry;
  let polys = [];
  if (g && g.type === 'Polygon') polys = [g.coordinates];
  else if (g && g.type === 'MultiPolygon') polys = g.coordinates;
  else if (g) throw new Error(`unexpected geometry type ${g.type} for ${name}`);
  polys = polys.flatMap((rings) =>
    rings.some((r) => r.some((p, i) => i > 0 && jumps(r[i - 1], p))) ? planarPolygons(rings, name) : [rings]);
  polys = polys.map(polygon).filter(Boolean);
  if (polys.length === 0) { stats.droppedFeatures.push(name); continue; }
  const geometry = polys.length === 1
    ? { type: 'Polygon', coordinates: polys[0] }
    : { type: 'MultiPolygon', coordinates: polys };
  features.push({ type: 'Feature', properties: { name }, geometry });
}

// Guard: planar-correct output, every point in range and no edge across the antimeridian.
for (const { properties, geometry } of features) {
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const r of polys.flat()) {
    r.forEach((p, i) => {
      if (!(Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90) || (i > 0 && jumps(r[i - 1], p))) {
        throw new Error(`${properties.name}: point ${p} out of range or across the antimeridian`);
      }
    });
  }
}

const json = JSON.stringify({ type: 'FeatureCollection', features }) + '\n';
fs.writeFileSync(dest, json);
console.error(`countries: ${features.length} features (${fc.features.length} in source), ` +
  `${Buffer.byteLength(json)} bytes; cut ${stats.cutRings.length} rings crossing the antimeridian ` +
  `(${stats.cutRings.join(', ')}) into ${stats.cutPieces} pieces; dropped ${stats.droppedRings} rings, ` +
  `${stats.droppedPolygons} polygons, features without geometry: ${JSON.stringify(stats.droppedFeatures)}`);
JS

mv "$tmp/countries.geojson" "$out"
echo "wrote ${out#"$root"/}"
