# shellcheck shell=bash
# Sourced by dev/services: the readers the tests check the product's files with that are not servers. The PMTiles
# reference reader and writer, go-pmtiles (Protomaps' own, pinned), built once with `go install` into the cache;
# its `verify` checks an archive against the specification and `tile` reads one tile back.

PMTILES_VERSION=v1.31.2

pmtiles_bin() { go_tool go-pmtiles github.com/protomaps/go-pmtiles "$PMTILES_VERSION"; }

readers_install() { pmtiles_bin >/dev/null; }

readers_summary() { say "PMTiles        $(pmtiles_bin) (go-pmtiles $PMTILES_VERSION)"; }

# Its line of .dev/services.env, once built.
readers_env() {
  local dir="$TOOLS_CACHE/go/go-pmtiles-$PMTILES_VERSION"
  [ -x "$dir/go-pmtiles" ] && printf 'export SEEDER_PMTILES=%s\n' "$dir/go-pmtiles"
  return 0
}
