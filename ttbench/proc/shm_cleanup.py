"""Removing what tt-metal and Tenstorrent's simulator leave in /dev/shm (lock files, the simulated device's memory
segments). A plain module with no imports from ttbench: the simulator's replay script, which runs in another
Python and must not import the package, uses it from this folder; the parent side (tt/sim/executor.py) too."""
import os

SHM = "/dev/shm"
LEFTOVER_PREFIXES = ("TT_UMD_LOCK.", "tt_device_", "sm_segment.")


def shm_leftovers() -> set:
    """Paths of this user's leftovers in /dev/shm now."""
    try:
        names = os.listdir(SHM)
    except OSError:
        return set()
    found = set()
    for name in names:
        path = os.path.join(SHM, name)
        try:
            if name.startswith(LEFTOVER_PREFIXES) and os.lstat(path).st_uid == os.getuid():
                found.add(path)
        except OSError:
            pass
    return found


def remove(paths) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass


def clean_up_after_this_process(pid_file: str) -> None:
    """A forked helper that outlives this process by a moment: when this process ends, however (its parent killed,
    then it by the kernel), the helper removes the leftovers made since now and exits. Its pid goes to `pid_file`
    (the parent waits for it before starting the next replay, whose files it must not take). The parent's normal
    path cleans up too; this covers the paths where no code of ours runs."""
    before = shm_leftovers()
    read_end, write_end = os.pipe()
    helper = os.fork()
    if helper == 0:
        os.close(write_end)
        os.setpgid(0, 0)  # out of the replay's process group: killing that group leaves the helper its work
        try:
            while os.read(read_end, 1):
                pass
        finally:
            remove(shm_leftovers() - before)
            os._exit(0)
    os.close(read_end)  # the write end stays open in this process only: its end is the helper's EOF
    with open(pid_file, "w") as f:
        f.write(str(helper))
