# Shared helpers for scripts/test and scripts/demo (sourced, not run).

# Installs the Debian packages that are missing; apt-get update only when something is.
cuzk_install_debs() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# Makes nvcc visible to CMake when the CUDA toolkit sits in its default place.
cuzk_find_cuda() {
  if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    export CUDACXX=/usr/local/cuda/bin/nvcc
  fi
}

# Configures and builds into $1 with extra CMake arguments after it.
cuzk_build() {
  local dir="$1"
  shift
  cuzk_find_cuda
  cmake -S "$CUZK_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$(nproc)"
}
