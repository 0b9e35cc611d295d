# shellcheck shell=bash
# Sourced by the project's scripts: finds a JDK 21 or newer and exports JAVA_HOME and PATH for it.
# Order: $JAVA_HOME, the `java` on PATH, then the usual install folders (newest first).
# Fails with a clear message when there is none.

_java_major() {
  # Prints the feature release of the JDK at $1 (e.g. 25), or nothing if $1 is not a JDK.
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

find_jdk() {
  local min=21 candidate major
  local -a candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  # shellcheck disable=SC2012 # JDK folders' names: sort -V orders their versions
  for candidate in $(ls -d /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
                        /Library/Java/JavaVirtualMachines/*/Contents/Home 2>/dev/null | sort -rV); do
    candidates+=("$candidate")
  done
  for candidate in "${candidates[@]}"; do
    major=$(_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge "$min" ]; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      if [ "$major" -ge 24 ]; then
        # Maven's bundled Guice uses sun.misc.Unsafe; JDK 24+ warns about it on every build unless allowed.
        export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
      fi
      return 0
    fi
  done
  echo "error: no JDK $min or newer found (looked at JAVA_HOME=${JAVA_HOME:-unset}, the java on PATH and /usr/lib/jvm)." >&2
  echo "       Install one (e.g. 'apt-get install openjdk-21-jdk-headless') or set JAVA_HOME to it." >&2
  return 1
}
