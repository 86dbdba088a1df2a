"""TTIR and TTNN from the real Tenstorrent compiler plugin, compile-only on this machine (no chip)."""
import os
import re
import shutil

import pytest
import torch

import ttbench as tb
from ttbench import optional
from ttbench.proc.scratch import cache_dir, private_tmp
from ttbench.tt import plugin as tt_plugin
from tests.paths import REPO

pytestmark = [pytest.mark.tt, pytest.mark.skipif(not optional.tt_plugin().available, reason=optional.TT_HINT)]


def _assert_tt_stages(b, model_file):
    for name in ("ttir", "ttnn"):
        st = b.stages[name]
        assert st.ok, st.error
        assert st.meta["target"] in (tt_plugin.TARGET_COMPILE_ONLY, tt_plugin.TARGET_DEVICE)
        located = [op for op in st.ops if op.location and op.location.file.endswith(model_file)]
        assert located, f"{name}: no op mapped back to {model_file}"
    assert any(op.name.startswith("ttir.") for op in b.stages["ttir"].ops)
    assert any(op.name == "ttnn.matmul" or op.name == "ttnn.linear" or op.name == "ttnn.conv2d"
               for op in b.stages["ttnn"].ops)
    assert b.stages["ttnn"].meta["flatbuffer_bytes"] > 10_000
    handed = b.stages["ttir"].artifacts["ttir.input.stablehlo.mlir"]
    assert "arith.constant" not in handed and "loc(" in handed


@pytest.mark.parametrize("params", ["args", "inline"])
def test_mlp_ttir_ttnn(zoo_bringup, params):
    b = zoo_bringup("mlp", "export", params, tt=True)
    _assert_tt_stages(b, "loader.py")


def test_mlp_onnx_ttir_ttnn(zoo_bringup):
    _assert_tt_stages(zoo_bringup("mlp", "onnx", "inline", tt=True), "loader.py")


@pytest.mark.slow
@pytest.mark.parametrize("params", ["args", "inline"])
def test_mobilenet_v2_ttir_ttnn(zoo_bringup, params):
    b = zoo_bringup("mobilenet_v2", "export", params, tt=True)
    _assert_tt_stages(b, "modeling_mobilenet_v2.py")
    assert sum(op.name == "ttir.conv2d" for op in b.stages["ttir"].ops) == 52


@pytest.mark.slow
def test_mobilenet_v2_onnx_ttir_ttnn(zoo_bringup):
    _assert_tt_stages(zoo_bringup("mobilenet_v2", "onnx", "args", tt=True), "modeling_mobilenet_v2.py")


def test_args_mode_marks_weights_as_parameters_and_const_eval_hoists(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    ttir_sig = re.search(r"func\.func @main\((.*?)\) ->", b.stages["ttir"].full_text(), re.S).group(1)
    assert ttir_sig.count("#ttcore.argument_type<parameter>") == 6
    assert ttir_sig.count("#ttcore.argument_type<input>") == 1
    assert b.stages["ttnn"].meta["const_eval_ops"] > 0
    assert any("const_eval" in (op.attrs.get("func") or "") for op in b.stages["ttnn"].ops)


@pytest.mark.skipif(optional.tt_device_count() > 0, reason="with a chip the plugin describes the real system")
def test_descriptor_is_cached(zoo_bringup):
    zoo_bringup("mlp", "export", "args", tt=True)
    path = tt_plugin.system_descriptor()
    assert os.path.getsize(path) > 100 and path.startswith(tt_plugin.cache_dir())
    made = os.path.getmtime(path)
    assert tt_plugin.system_descriptor() == path and os.path.getmtime(path) == made  # reused, not made again


def test_compiler_timeout_keeps_earlier_stages_in_this_process():
    model, inputs = tb.models.load("mlp")
    b = tb.bringup(model, inputs, tt_timeout=0.5)
    assert [b.stages[n].ok for n in ("fx", "torchfx", "stablehlo")] == [True, True, True]
    assert not b.stages["ttir"].ok and "timed out after 0.5 s" in b.stages["ttir"].error
    assert b.stages["ttnn"].error == "skipped: ttir failed"
    assert torch.relu(torch.ones(1)).item() == 1.0  # the process (a notebook kernel) is alive and well


def test_compiler_failure_reports_the_compiler_message(tmp_path):
    """A module the plugin rejects: the child dies, the parent gets the compiler's own words."""
    bad = tmp_path / "w"
    bad.mkdir()
    result = tt_plugin.compile_stablehlo("module { func.func @main() { not_an_op } }", str(bad), timeout=300)
    assert not result.ok and result.error.startswith("compiler ")
    assert "(no output)" not in result.error


def test_without_plugin_tt_stages_say_how_to_install(monkeypatch):
    monkeypatch.setenv("TTBENCH_DISABLE_TT", "1")
    optional.tt_plugin.cache_clear()
    try:
        model, inputs = tb.models.load("mlp")
        b = tb.bringup(model, inputs)
    finally:
        monkeypatch.delenv("TTBENCH_DISABLE_TT")
        optional.tt_plugin.cache_clear()
    assert b.stages["stablehlo"].ok
    assert "pip install jax-tt-plugin" in b.stages["ttir"].error
    assert b.stages["ttnn"].error == "skipped: ttir failed"


def test_compiles_at_once_do_not_break_each_other(zoo_bringup, tmp_path):
    """The plugin shares one descriptor path between processes; ttbench serialises its plugin children."""
    import threading

    from ttbench.ir.text import legalize_for_tt

    text = legalize_for_tt(zoo_bringup("mlp").stages["stablehlo"].full_text())
    results = [None] * 3

    def compile_one(i):
        (tmp_path / str(i)).mkdir()
        results[i] = tt_plugin.compile_stablehlo(text, str(tmp_path / str(i)), timeout=300)

    threads = [threading.Thread(target=compile_one, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.ok for r in results), [r.error for r in results]
    assert all("ttnn" in r.files for r in results)


def test_flatbuffer_file_lives_as_long_as_its_bringup(tmp_path):
    # Each bringup keeps its flatbuffer on disk for export; they used to stay in /tmp for good (1.6 GB after a day).
    import gc

    m, x = tb.models.load("mlp")
    b = tb.bringup(m, x)
    path = b.stages["ttnn"].meta["flatbuffer_path"]
    assert os.path.getsize(path) == b.stages["ttnn"].meta["flatbuffer_bytes"]
    b.export(str(tmp_path / "out"))
    assert (tmp_path / "out" / "ttnn.flatbuffer.ttnn").stat().st_size == os.path.getsize(path)
    del b
    gc.collect()
    assert not os.path.exists(os.path.dirname(path))


def test_flatbuffer_folder_of_a_killed_process_goes_with_the_next_bringup():
    # A notebook kernel killed at shutdown runs no exit handlers; its flatbuffer must not stay in /tmp for good.
    import subprocess
    import sys

    killed = subprocess.run([sys.executable, "-c", (
        "import os, signal, ttbench as tb\n"
        "b = tb.bringup(*tb.models.load('mlp'))\n"
        "print(b.stages['ttnn'].meta['flatbuffer_path'], flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)")], capture_output=True, text=True)
    assert killed.stdout.strip(), killed.stderr[-3000:]
    left = killed.stdout.strip().splitlines()[-1]
    assert killed.returncode == -9 and os.path.exists(left), killed.stderr[-500:]
    subprocess.run([sys.executable, "-c", "from ttbench.proc.scratch import scratch_dir; scratch_dir('ttbench-fb-')"],
                   check=True)
    assert not os.path.exists(left)


def test_the_one_tt_compile_is_counted_once(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    ttir, ttnn = b.stages["ttir"], b.stages["ttnn"]
    assert ttir.seconds > 0 and ttnn.seconds == 0.0
    assert ttir.meta["compile_seconds"] == ttnn.meta["compile_seconds"] == pytest.approx(ttir.seconds, abs=1e-3)
    assert sum(s.seconds for s in b.stages.values()) <= b.seconds + 0.5


def test_plugin_processes_keep_their_files_in_a_private_temp_folder(tmp_path, monkeypatch):
    # The plugin writes fixed names in the temp folder (/tmp/tt_pjrt_system_descriptor, its runtime assets): on a
    # shared machine another user could plant them (ttbench copied a planted descriptor, mode and all, into the
    # cache) or own them. Every plugin process now runs with TMPDIR in the user's cache, 0700.
    planted = "/tmp/tt_pjrt_system_descriptor"
    if os.path.lexists(planted):
        pytest.skip(f"{planted} exists already (another process's): not ours to replace")
    target = tmp_path / "someone_elses_file"
    target.write_text("do not overwrite")
    os.symlink(target, planted)
    try:
        monkeypatch.setenv("TTBENCH_CACHE", str(tmp_path / "cache"))
        b = tb.bringup(*tb.models.load("mlp"))
        assert b.stages["ttnn"].ok, b.table()
    finally:
        os.unlink(planted)
    assert target.read_text() == "do not overwrite"
    private = tmp_path / "cache" / "tmp"
    assert private.is_dir() and (private.stat().st_mode & 0o777) == 0o700
    descriptor = tmp_path / "cache" / tt_plugin.DESCRIPTOR_NAME
    assert descriptor.is_file() and not descriptor.is_symlink() and not descriptor.stat().st_mode & 0o022


def test_the_runtime_unpacking_race_is_retried_once_and_never_called_a_compiler_failure(tmp_path, monkeypatch):
    from ttbench.stages.tt import handed_over_text
    from ttbench.tt.plugin import compile_stablehlo

    b = tb.bringup(*tb.models.load("mlp"), tt=False)
    text = handed_over_text(b.stages["stablehlo"], b.arguments, "args")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.setenv("TTBENCH_TT_WORKER_FAULT", f"race:{tmp_path / 'raced-once'}")
    once = compile_stablehlo(text, str(tmp_path / "a"))
    assert once.ok and (tmp_path / "raced-once").exists(), once.error
    monkeypatch.setenv("TTBENCH_TT_WORKER_FAULT", "race-always:-")
    always = compile_stablehlo(text, str(tmp_path / "b"))
    assert not always.ok and "could not unpack its runtime" in always.error and "compiler failed" not in always.error


def _unused_uid() -> int:
    import pwd

    taken = {p.pw_uid for p in pwd.getpwall()}
    return next(uid for uid in range(54321, 60000) if uid not in taken)


def _as_user(uid: int, home, command: list, mounts) -> list:
    """`command` as `uid` (setpriv; no account is added to the machine), with HOME=`home`. This interpreter may live
    in root's home, which another uid cannot enter: in a mount namespace of its own, root's home becomes an empty
    tmpfs with only the interpreter's pyenv folder bound back in (`mounts` is a scratch folder for that)."""
    import shlex
    import sys

    prefix = os.path.realpath(sys.executable)
    share = ""
    home_of_root = os.path.expanduser("~root")
    if prefix.startswith(home_of_root + os.sep):
        top = os.path.join(home_of_root, os.path.relpath(prefix, home_of_root).split(os.sep)[0])
        share = (f"mount --bind {shlex.quote(top)} {shlex.quote(str(mounts))} && "
                 f"mount -t tmpfs -o mode=0755 tmpfs {shlex.quote(home_of_root)} && mkdir {shlex.quote(top)} && "
                 f"mount --bind {shlex.quote(str(mounts))} {shlex.quote(top)} && ")
    run = " ".join(shlex.quote(c) for c in ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "env",
                                             f"HOME={home}", f"PYTHONPATH={REPO}", *command])
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", f"{share}cd {shlex.quote(str(home))} && "
            f"exec {run}"]


TWO_USERS = "setpriv --reuid to an unused uid and a mount namespace: needs root and util-linux"


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="mounts a small tmpfs: needs root")
def test_no_room_to_unpack_the_plugin_runtime_is_said_with_the_free_space_not_as_a_compiler_failure(tmp_path):
    """The plugin unpacks ~420 MB of runtime into the user's private temp folder on first use; on a full disk it
    only says 'failed to extract'. ttbench says where, how much room there is, and that it is no compiler failure."""
    import subprocess
    import sys

    cache = tmp_path / "cache"
    cache.mkdir()
    script = ("import ttbench as tb; b = tb.bringup(*tb.models.load('mlp')); print('TTIR', b.stages['ttir'].error)")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           f"mount -t tmpfs -o size=64m tmpfs {cache} && exec {sys.executable} -c \"{script}\""],
                          env={**os.environ, "TTBENCH_CACHE": str(cache)}, capture_output=True, text=True, timeout=600)
    line = next((l for l in done.stdout.splitlines() if l.startswith("TTIR ")), done.stdout + done.stderr[-2000:])
    assert "no room" in line and "MB free" in line and str(cache) in line, line
    assert "compiler failed" not in line and "Unknown backend" not in line, line


@pytest.mark.skipif(os.geteuid() != 0 or not all(shutil.which(t) for t in ("setpriv", "unshare")), reason=TWO_USERS)
def test_two_users_compile_at_once_and_neither_trusts_the_others_files(tmp_path, request):
    """A second user on the machine (an unused uid) plants, in the shared /tmp, what the plugin would once have
    written there: a link to a file of ours as its system descriptor, and a world-writable runtime folder of the
    name our plugin unpacks into. Then both users bring a model up through the Tenstorrent compiler at once: both
    pass, nothing is written through the link, and neither user's cache holds a file the other made."""
    import subprocess
    import sys

    import pathlib
    import tempfile

    other = _unused_uid()
    # The other user's home (pytest's tmp_path is root's, 0700) gets its own ~420 MB copy of the plugin's runtime:
    # on the roomier of the shared temp folders, and a skip that says so where neither has room.
    shared = max(("/var/tmp", "/tmp"), key=lambda d: shutil.disk_usage(d).free if os.path.isdir(d) else 0)
    free_mb = shutil.disk_usage(shared).free / 2**20
    if free_mb < 2 * tt_plugin.RUNTIME_UNPACKED_MB:
        pytest.skip(f"the other user's copy of the plugin runtime needs ~{tt_plugin.RUNTIME_UNPACKED_MB} MB: "
                    f"{shared} has {free_mb:.0f} MB free")
    home = pathlib.Path(tempfile.mkdtemp(prefix="ttbench-other-user-", dir=shared))
    os.chown(home, other, other)
    (tmp_path / "mounts").mkdir()
    ours = tmp_path / "ours.txt"
    ours.write_text("ours")
    ours.chmod(0o644)
    runtime = [n for n in os.listdir(private_tmp()) if n.startswith("libtt-tt-metal-runtime-assets")]
    if os.path.lexists("/tmp/tt_pjrt_system_descriptor"):
        pytest.skip("/tmp/tt_pjrt_system_descriptor exists already (another process's): not ours to replace")
    plants = ["/tmp/tt_pjrt_system_descriptor"] + [f"/tmp/{n}" for n in runtime if not os.path.lexists(f"/tmp/{n}")]
    plant = f"ln -s {ours} {plants[0]}" + "".join(f" && mkdir -m 0777 {p}" for p in plants[1:])
    done = subprocess.run(_as_user(other, home, ["sh", "-c", plant], tmp_path / "mounts"), capture_output=True,
                          text=True, timeout=60)
    try:
        assert done.returncode == 0, done.stderr
        assert os.lstat(plants[0]).st_uid == other
        script = ("import ttbench as tb; b = tb.bringup(*tb.models.load('mlp')); "
                  "print('TTNN', b.stages['ttnn'].ok, b.stages['ttnn'].error, b.stages['ttir'].error)")
        theirs = subprocess.Popen(_as_user(other, home, [sys.executable, "-c", script], tmp_path / "mounts"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            b = tb.bringup(*tb.models.load("mlp"))  # ours, while theirs runs
            out, err = theirs.communicate(timeout=900)
        finally:
            theirs.kill()
        assert b.stages["ttnn"].ok, b.table()
        assert "TTNN True None" in out, out + err[-3000:]
    finally:
        for p in plants:
            if os.path.islink(p) or os.path.isfile(p):
                os.unlink(p)
            elif os.path.isdir(p):
                os.rmdir(p)
        request.addfinalizer(lambda: shutil.rmtree(home, ignore_errors=True))
    assert ours.read_text() == "ours"  # nothing written through their link
    their_cache = home / ".cache" / "ttbench"
    descriptor = their_cache / tt_plugin.DESCRIPTOR_NAME
    assert descriptor.is_file() and descriptor.stat().st_uid == other and not descriptor.stat().st_mode & 0o022
    assert (their_cache / "tmp").stat().st_uid == other and ((their_cache / "tmp").stat().st_mode & 0o777) == 0o700
    ours_cached = os.path.join(cache_dir(), tt_plugin.DESCRIPTOR_NAME)
    assert os.stat(ours_cached).st_uid == os.getuid()


def test_a_runs_jobs_compile_through_one_plugin_process_and_a_failure_reads_as_a_one_shot_compiles(tmp_path,
                                                                                                  monkeypatch):
    # A tracker job used to start the plugin for its one compile (~2.7 s of bert's 3 s), one job at a time under
    # the plugin lock. In a run with a compile service, successes come from its one plugin process; a module it
    # cannot compile (here a planted abort) is compiled again one-shot, so the error is the one-shot's own.
    from ttbench.proc.children import DISPOSABLE_JOB_ENV
    from ttbench.stages.tt import handed_over_text
    from ttbench.tt import compile_service

    b = tb.bringup(*tb.models.load("mlp"), tt=False)
    text = handed_over_text(b.stages["stablehlo"], b.arguments, "args")
    monkeypatch.setenv("TTBENCH_TT_WORKER_FAULT", "abort:planted-abort")  # before the service: its plugin has it
    with tt_plugin.compile_service() as service:
        monkeypatch.setenv(DISPOSABLE_JOB_ENV, "1")
        monkeypatch.setenv(compile_service.SERVICE_ENV, service.path)
        compiled = []
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            compiled.append(tt_plugin.compile_stablehlo(text, str(tmp_path / name)))
        assert all(c.ok and c.files.get("ttnn") for c in compiled), [c.error for c in compiled]
        assert service.served == 2 and service.worker.restarts == 0  # one plugin start for both
        (tmp_path / "c").mkdir()
        aborted = tt_plugin.compile_stablehlo(text + "\n// planted-abort\n", str(tmp_path / "c"))
        assert not aborted.ok and aborted.error.startswith("compiler aborted"), aborted.error
        (tmp_path / "d").mkdir()
        again = tt_plugin.compile_stablehlo(text, str(tmp_path / "d"))
        assert again.ok and service.served == 3 and service.worker.restarts == 1  # a fresh plugin after the crash
        monkeypatch.delenv(compile_service.SERVICE_ENV)
        (tmp_path / "e").mkdir()
        alone = tt_plugin.compile_stablehlo(text + "\n// planted-abort\n", str(tmp_path / "e"))
        assert aborted.error == alone.error and aborted.log == alone.log
    assert not any(os.path.exists(folder) for folder in service.folders)  # the plugin's runtime, the socket
