import signal
import sys


def _terminated(signum, frame):
    """SIGTERM (systemd stopping a unit, `timeout`, a plain `kill`) stops the driver as
    Ctrl-C does: the sheet in progress is finished, our prompt interrupted, the state
    saved, one line said. It died at once, with no word and its prompt still running."""
    raise KeyboardInterrupt


signal.signal(signal.SIGTERM, _terminated)

try:
    from driver.blas import one_blas_thread

    one_blas_thread()  # before anything imports numpy: see driver/blas.py

    from driver.cli import main
except KeyboardInterrupt:  # Ctrl-C while Python loads the driver: no verb has run yet
    print("driver: interrupted; nothing was written", file=sys.stderr)
    sys.exit(130)  # driver.exitcodes.Exit.INTERRUPTED, not imported: it may be what was cut

code = main()
try:
    sys.stdout.flush()  # what a pipe's buffer holds is written here, not at print()
except BrokenPipeError:  # the reader went away (`| head`): no word; the shell's code
    from driver.cli import quiet_stdout  # where the verb had none of its own to give
    from driver.exitcodes import Exit

    quiet_stdout()
    code = Exit.PIPE_CLOSED if code == Exit.OK else code
sys.exit(code)
