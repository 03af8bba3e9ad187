#!/usr/bin/env bash
# Builds Cairn's API reference offline, from the compiler's symbol graphs, with the toolchain's
# `docc`, and checks it: a broken link or any other DocC warning fails the script.
#
#   Scripts/docs.sh            # writes .build/docs/Cairn.doccarchive; prints undocumented public symbols per module
#   Scripts/docs.sh --strict   # also fails when a public symbol has no documentation comment
#   Scripts/docs.sh --list     # also lists each undocumented symbol (module, file, name)
#
# Three archives are converted and merged into one:
# - Cairn: the Cairn, CairnQuery and CairnSQLite modules, with the catalog
#   Sources/Cairn/Cairn.docc (landing page and the Getting Started articles) and the guides of
#   Docs/*.md, copied into a temporary catalog at build time so that the Markdown in Docs/
#   stays their one copy. The engine's `Statement`, which `import Cairn` does not export, is
#   documented here too (`import CairnSQLite` names it).
# - CairnCoreData: Core Data's names (NSFetchRequest, NSPredicate's format grammar, …).
# - CairnPostgres: the PostgreSQL engine (PostgresDatabase, PostgresConnection, …).
#
# Why the symbol graphs are filtered first: a module that re-exports another (`@_exported
# import Foundation`, `CairnCoreData` re-exporting `Cairn`) gets every symbol of that module in
# its own graph, so Cairn's graph holds all of Foundation. The filter keeps the symbols declared
# in the archive's own source folders, the types they extend (so an extension of
# `PredicateExpressions` has a page to hang on), and drops the members the compiler
# synthesizes (`!=`, `hash(into:)`, `localizedDescription`), which carry no comment to write.
# A module re-exported type by type (CairnQuery re-exports CairnSQLite's types, all but
# `Statement`) brings its types into the graph but not the members its extensions add
# (`Database.execute(sql:)`, `Int`'s `DatabaseValueConvertible`), so the filter first merges
# the graphs of the archive's other modules into the archive module's graphs.
#
# To read the archive: `docc preview` with the same inputs, or serve
# .build/docs/Cairn.doccarchive with any static web server
# (`python3 -m http.server -d .build/docs/Cairn.doccarchive`, then open /documentation/cairn).
set -euo pipefail

strict=0
list=0
for argument in "$@"; do
    case "$argument" in
        --strict) strict=1 ;;
        --list) list=1 ;;
        -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "docs.sh: unknown option '$argument' (expected --strict, --list or --help)" >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")/.."
root=$PWD
docc=$(command -v docc || true)
if [[ -z "$docc" ]]; then
    swift_path=$(readlink -f "$(command -v swift)")
    docc="$(dirname "$swift_path")/docc"
fi
[[ -x "$docc" ]] || { echo "docs.sh: no 'docc' found beside swift ($docc); install a Swift toolchain that ships DocC" >&2; exit 2; }

scratch=.build/docs
graphs="$root/$scratch/symbol-graphs"
work="$root/$scratch/work"
mkdir -p "$graphs"
rm -rf "$work" "$scratch/Cairn.doccarchive"
mkdir -p "$work"

# A separate scratch path: the symbol-graph flags would otherwise rebuild the ordinary build.
# The graphs folder is kept between runs, since a module the build does not recompile does
# not write its graph again.
echo "docs.sh: building the symbol graphs" >&2
swift build --scratch-path "$scratch" --target CairnCoreData \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >&2
swift build --scratch-path "$scratch" --target CairnPostgres \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >&2

# filter ARCHIVE_MODULE OUT_DIR SOURCE_FOLDER...: the archive's symbols, as described above.
filter() {
    python3 - "$graphs" "$root/Sources" "$list" "$@" <<'PYTHON'
import glob, json, os, sys
graphs, sources, show, module, out = sys.argv[1:6]
folders = sys.argv[6:]
os.makedirs(out, exist_ok=True)
prefixes = ["file://" + os.path.join(sources, f) + "/" for f in folders]
# Members that implement a standard protocol's requirement (`==`, `hash(into:)`, `startIndex`,
# `description`, …): DocC lists them under the protocol's implementations, where the protocol
# says what they do. They are not counted.
witnesses = {"==(_:_:)", "!=(_:_:)", "<(_:_:)", "hash(into:)", "startIndex", "endIndex",
             "subscript(_:)", "index(after:)", "index(before:)", "makeIterator()", "next()",
             "description", "debugDescription", "encode(to:)", "init(from:)", "id", "hashValue",
             "errorDescription", "localizedDescription", "init(rawValue:)", "rawValue"}
def graphs_of(name):
    return sorted(glob.glob(os.path.join(graphs, name + ".symbols.json"))
                  + glob.glob(os.path.join(graphs, name + "@*.symbols.json")))
def load(path):
    with open(path) as f:
        return json.load(f)
merged = {os.path.basename(p): load(p) for p in graphs_of(module)}
main = merged.get(module + ".symbols.json")
if main is None:
    sys.exit(f"docs.sh: no symbol graph of {module} in {graphs}")
main_ids = {s["identifier"]["precise"] for s in main["symbols"]}
# Another module's graph `M.symbols.json` goes into the archive module's main graph, and
# `M@X.symbols.json` (M's extensions of module X) into the main graph when X's types are in it
# (Cairn re-exports Foundation), otherwise into `<archive module>@X.symbols.json`. A symbol
# both graphs hold is kept once.
for folder in folders:
    if folder == module:
        continue
    for path in graphs_of(folder):
        graph = load(path)
        extended = os.path.basename(path)[len(folder):-len(".symbols.json")]
        ids = {s["identifier"]["precise"] for s in graph["symbols"]}
        outside = {i for r in graph["relationships"] for i in (r["source"], r["target"])} - ids
        name = module + extended + ".symbols.json"
        if not extended or (name not in merged and outside & main_ids):
            name = module + ".symbols.json"
        target = merged.setdefault(name, dict(graph, symbols=[], relationships=[]))
        target["module"] = main["module"]
        present = {s["identifier"]["precise"] for s in target["symbols"]}
        target["symbols"] += [s for s in graph["symbols"] if s["identifier"]["precise"] not in present]
        seen = {(r["kind"], r["source"], r["target"]) for r in target["relationships"]}
        target["relationships"] += [r for r in graph["relationships"]
                                    if (r["kind"], r["source"], r["target"]) not in seen]
undocumented = {}
for basename, graph in sorted(merged.items()):
    symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    def own(s):
        uri = (s.get("location") or {}).get("uri", "")
        return any(uri.startswith(p) for p in prefixes)
    keep = {i for i, s in symbols.items() if own(s) and "::SYNTHESIZED::" not in i}
    # The types a kept symbol is a member of, up to the top, so every member has a parent page.
    parents = {}
    for r in graph["relationships"]:
        if r["kind"] in ("memberOf", "optionalRequirementOf", "requirementOf"):
            parents.setdefault(r["source"], []).append(r["target"])
    pending = list(keep)
    while pending:
        for parent in parents.get(pending.pop(), []):
            if parent in symbols and parent not in keep and "::SYNTHESIZED::" not in parent:
                keep.add(parent)
                pending.append(parent)
    graph["symbols"] = [symbols[i] for i in sorted(keep)]
    graph["relationships"] = [r for r in graph["relationships"] if r["source"] in keep]
    for s in graph["symbols"]:
        name = ".".join(s["pathComponents"])
        if (own(s) and "docComment" not in s and s["pathComponents"][-1] not in witnesses
                and not any(p.startswith("_") for p in s["pathComponents"])):
            uri = s["location"]["uri"][len("file://" + sources) + 1:]
            undocumented.setdefault(uri.split("/")[0], []).append((uri, name))
    with open(os.path.join(out, basename), "w") as f:
        json.dump(graph, f)
for folder in folders:
    entries = sorted(undocumented.get(folder, []))
    print(f"  {folder}: {len(entries)} public symbols without documentation", file=sys.stderr)
    if show == "1":
        for uri, name in entries:
            print(f"    {uri}: {name}", file=sys.stderr)
with open(os.path.join(out, "undocumented-count"), "w") as f:
    f.write(str(sum(len(v) for v in undocumented.values())))
PYTHON
}

# guides CATALOG: Docs/*.md become articles of the catalog; a link to another guide
# (`[Queries.md](Queries.md)`, `](Docs/Queries.md)`) becomes a DocC link to its article.
guides() {
    local catalog=$1
    mkdir -p "$catalog/Guides"
    for guide in Docs/*.md; do
        sed -E 's#\[[^]]*\]\((Docs/)?([A-Za-z]+)\.md(\#[^)]*)?\)#<doc:\2>#g' "$guide" \
            > "$catalog/Guides/$(basename "$guide")"
    done
}

# convert NAME CATALOG_OR_EMPTY: one archive, warnings as errors.
convert() {
    local name=$1 catalog=$2
    local arguments=()
    [[ -n "$catalog" ]] && arguments+=("$catalog")
    "$docc" convert "${arguments[@]}" \
        --additional-symbol-graph-dir "$work/$name-graphs" \
        --fallback-display-name "$name" --fallback-bundle-identifier "org.cairn.$name" \
        --output-path "$work/$name.doccarchive" \
        --warnings-as-errors >&2
}

echo "docs.sh: undocumented public symbols" >&2
filter Cairn "$work/Cairn-graphs" Cairn CairnQuery CairnSQLite
filter CairnCoreData "$work/CairnCoreData-graphs" CairnCoreData
filter CairnPostgres "$work/CairnPostgres-graphs" CairnPostgres
undocumented=$(( $(cat "$work/Cairn-graphs/undocumented-count") + $(cat "$work/CairnCoreData-graphs/undocumented-count")
    + $(cat "$work/CairnPostgres-graphs/undocumented-count") ))

cp -R Sources/Cairn/Cairn.docc "$work/Cairn.docc"
guides "$work/Cairn.docc"

echo "docs.sh: converting" >&2
convert Cairn "$work/Cairn.docc"
convert CairnCoreData ""
convert CairnPostgres ""
"$docc" merge "$work/Cairn.doccarchive" "$work/CairnCoreData.doccarchive" "$work/CairnPostgres.doccarchive" \
    --synthesized-landing-page-name Cairn --output-path "$scratch/Cairn.doccarchive" >&2

echo "docs.sh: wrote $scratch/Cairn.doccarchive" >&2
if (( strict && undocumented > 0 )); then
    echo "docs.sh: $undocumented public symbols have no documentation comment (--list names them)" >&2
    exit 1
fi
