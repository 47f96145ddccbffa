#!/usr/bin/env bash
# Packages the VS Code extension as a .vsix, with lockjaw-language-server's jar inside, using
# @vscode/vsce from npm (a devDependency in package.json, installed with `npm ci` in a staging
# folder, so this folder stays as it is).
#
#   editors/vscode/package.sh [SERVER_JAR [OUTPUT.vsix]]
#
# SERVER_JAR defaults to language-server/target/lockjaw-language-server-<version>.jar (build it with
# scripts/jdk21.sh mvn -B package -pl language-server -am -DskipTests); OUTPUT defaults to
# editors/vscode/lockjaw-<version>.vsix. Install the result with: code --install-extension OUTPUT
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

jar=${1:-}
if [[ -z "$jar" ]]; then
  jar=$(ls "$root"/language-server/target/lockjaw-language-server-*.jar 2>/dev/null | grep -v '/original-' | head -n1 || true)
fi
if [[ -z "$jar" || ! -f "$jar" ]]; then
  echo "package.sh: no lockjaw-language-server jar${jar:+ at $jar}. Build it first:" \
    "scripts/jdk21.sh mvn -B package -pl language-server -am -DskipTests, or pass its path." >&2
  exit 2
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "package.sh: needs Node.js 18+ and npm on the PATH (https://nodejs.org) to run @vscode/vsce." >&2
  exit 2
fi
version=$(node -p "require(process.argv[1]).version" "$here/package.json")
out=${2:-$here/lockjaw-$version.vsix}
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
jar="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"

stage=$(mktemp -d "${TMPDIR:-/tmp}/lockjaw-vscode.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp "$here"/package.json "$here"/package-lock.json "$here"/extension.js "$here"/jdk.js \
  "$here"/README.md "$here"/.vscodeignore "$stage"/
mkdir "$stage/server"
cp "$jar" "$stage/server/lockjaw-language-server.jar"
cd "$stage"
npm ci --no-audit --no-fund --loglevel=error </dev/null
rm -f "$out"
npx --no-install vsce package --skip-license --allow-missing-repository --out "$out" </dev/null
echo "$out"
