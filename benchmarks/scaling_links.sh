# shellcheck shell=bash disable=SC2034,SC2154 # sourced: shares its variables with scaling.sh
# Sourced by scaling.sh: the links its --links mode forces the halo exchange through, the stand-ins on
# one host for a network between nodes (issue 66; benchmarks/distributed_model.md, "Slow links").
#
#   default      heatrk4's own route (--halo-exchange auto: the copy engines on one node)
#   nccl-socket  NCCL's network transport over loopback: --halo-exchange nccl with NCCL_P2P_DISABLE=1
#                NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo, and the socket threads
#                (NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD) that halo_bench found fastest among
#                SOCKET_THREADS; a GPU per rank
#   mpi-tcp      host memory through MPI's TCP transport over loopback: --halo-exchange host (GPU
#                ranks; cpu ranks exchange through MPI anyway) under --mca pml ob1 --mca btl tcp,self
#                --mca btl_tcp_if_include lo (ob1, so that UCX cannot take the messages past the btl)
#
# set_link LINK OVERLAP sets link_tag (the runs' and the tables' name: the link, and the overlap when
# one is forced), link_mpirun (mpirun's arguments), link_heatrk4 (heatrk4's) and link_halo_memory /
# link_halo_route (halo_bench's).

LINK_NAMES="default nccl-socket mpi-tcp"
socket_pair=""  # NTHREADSxNSOCKS for nccl-socket: tune_sockets' choice, NCCL's defaults until then

set_link() {
  local link=$1 overlap=$2
  link_tag=$link link_mpirun=() link_heatrk4=()
  link_halo_memory=$HALO_MEMORY link_halo_route=$HALO_ROUTE
  case $link in
    nccl-socket)
      link_heatrk4=(--halo-exchange nccl)
      link_mpirun=(-x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1 -x NCCL_IB_DISABLE=1 -x NCCL_SOCKET_IFNAME=lo)
      if [[ -n $socket_pair ]]; then
        link_mpirun+=(-x "NCCL_SOCKET_NTHREADS=${socket_pair%x*}" -x "NCCL_NSOCKS_PERTHREAD=${socket_pair#*x}")
      fi
      link_halo_memory=device link_halo_route=nccl
      ;;
    mpi-tcp)
      [[ $BACKEND == cpu ]] || link_heatrk4=(--halo-exchange host)
      # shellcheck disable=SC2054 # tcp,self is one value of OpenMPI's
      link_mpirun=(--mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo)
      link_halo_memory=host
      ;;
  esac
  if [[ -n $overlap ]]; then
    link_heatrk4+=(--halo-overlap "$overlap")
    link_tag+=" overlap $overlap"
  fi
  link_slug=${link_tag// /_}
}

# The arguments refused before any run: known links, overlaps and socket pairs (NCCL takes at most 16
# threads and 64 sockets in all), and GPUs enough for nccl-socket.
check_links() {
  local link overlap pair
  for link in $LINKS; do
    [[ " $LINK_NAMES " == *" $link "* ]] || { echo "scaling: --links: '$link' is not one of $LINK_NAMES" >&2; exit 2; }
    if [[ $link == nccl-socket ]] && { ((GPUS < 2)) || [[ $BACKEND == cpu ]]; }; then
      echo "scaling: --links nccl-socket needs GPU ranks, a GPU each (this machine lists $GPUS)" >&2
      exit 2
    fi
  done
  for overlap in $OVERLAPS; do
    [[ $overlap =~ ^(on|off|auto)$ ]] || { echo "scaling: --overlaps: '$overlap' is not on, off or auto" >&2; exit 2; }
  done
  for pair in $SOCKET_THREADS; do
    if [[ ! $pair =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] || ((BASH_REMATCH[1] > 16 || BASH_REMATCH[1] * BASH_REMATCH[2] > 64)); then
      echo "scaling: --socket-threads: '$pair' is not NTHREADSxNSOCKS with NTHREADS <= 16 and their product <= 64" >&2
      exit 2
    fi
  done
}

# One halo_bench exchange over nccl-socket with NCCL_DEBUG=INFO: its log must say NET/Socket, or the
# runs measure another transport.
transport_check() {
  local name=$WORK/runs/transport_nccl-socket
  set_link nccl-socket ""
  link_mpirun+=(-x NCCL_DEBUG=INFO)
  launch 2 "$name.out" "$HALO_BENCH" --n "$LINK_PROBE_N" --orders 2 --precisions float --memory device \
    --halo-exchange nccl --scheme step
  local seen=1
  grep -q "via NET/Socket" "$name.out" && seen=0
  say "   -> NCCL's log $( ((seen == 0)) && echo "names NET/Socket" || echo "does NOT name NET/Socket")"
  ((seen == 0)) || status=3
  record transport "$LINK_PROBE_N" "$LINK_PROBE_N" "$LINK_PROBE_N" "$LINK_PROBE_N" 2 float 2 - "$seen" "$wall_s" \
    "$name.out"
}

# halo_bench on 2 ranks through NCCL's sockets for each NTHREADSxNSOCKS of SOCKET_THREADS, at the
# largest grid and order: the fastest pair is the one every later nccl-socket run takes.
tune_sockets() {
  local n order pair best="" best_us="" us
  # shellcheck disable=SC2086 # the lists split into words on purpose (checked integers)
  n=$(printf '%s\n' $STRONG_SIZES $WEAK_N | sort -n | tail -1)
  order=$(printf '%s\n' "${orders[@]}" | sort -n | tail -1)
  for pair in $SOCKET_THREADS; do
    socket_pair=$pair
    set_link nccl-socket ""
    local name=$WORK/runs/tune_sockets_$pair
    launch 2 "$name.out" "$HALO_BENCH" --n "$n" --orders "$order" --precisions "${precisions[0]}" --memory device \
      --halo-exchange nccl --scheme step
    record tune "$n" "$n" "$n" "$n" "$order" "${precisions[0]}" 2 "$pair" "$exit_code" "$wall_s" "$name.out"
    us=$(awk '$1 == "float" || $1 == "double" { print $6; exit }' "$name.out")
    if ((exit_code == 0)) && [[ -n $us ]] && { [[ -z $best ]] || awk -v a="$us" -v b="$best_us" 'BEGIN { exit !(a < b) }'; }; then
      best=$pair best_us=$us
    fi
  done
  socket_pair=$best
  if [[ -n $best ]]; then
    say "== socket threads for nccl-socket: $best ($best_us us an exchange)"
  else
    say "== socket threads for nccl-socket: none ran; the runs take the defaults of NCCL"
  fi
}
