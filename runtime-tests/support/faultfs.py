#!/usr/bin/env python3
# Runs under Debian's Python 3 with its python3-fusepy package, started by the tests
# (support/fault-fs.ts) as root: a FUSE filesystem passing every call through to a
# directory, whose writes fail with the errno named in a control file (EIO, EROFS,
# ENOSPC…) while that file names one, and whose fsyncs wait while it says HOLD. Reads
# always pass.
#
# Usage: faultfs.py <backing directory> <mount point> <control file>
import errno, os, sys, time
from fusepy import FUSE, FuseOSError, Operations

class FaultFS(Operations):
    """Passes every call through to `root`; the calls that change the disk fail while `control` names an errno."""

    def __init__(self, root, control):
        self.root = root
        self.control = control
    def _control(self):
        try:
            with open(self.control) as f:
                return f.read().strip()
        except FileNotFoundError:
            return ''
    def fault(self):
        name = self._control()
        return getattr(errno, name, None) if name else None
    def _p(self, path): return os.path.join(self.root, path.lstrip('/'))
    def _check(self):
        e = self.fault()
        if e is not None: raise FuseOSError(e)
    def getattr(self, path, fh=None):
        st = os.lstat(self._p(path))
        return {k: getattr(st, k) for k in ('st_atime','st_ctime','st_gid','st_mode','st_mtime','st_nlink','st_size','st_uid')}
    def readdir(self, path, fh): return ['.', '..'] + os.listdir(self._p(path))
    def access(self, path, mode):
        if not os.access(self._p(path), mode): raise FuseOSError(errno.EACCES)
    def open(self, path, flags):
        # A file opened for writing is written to: refused as its writes are, as a read-only disk refuses it.
        if flags & (os.O_WRONLY | os.O_RDWR): self._check()
        return os.open(self._p(path), flags)
    def create(self, path, mode, fi=None):
        self._check(); return os.open(self._p(path), os.O_RDWR | os.O_CREAT, mode)
    def read(self, path, size, offset, fh):
        os.lseek(fh, offset, 0); return os.read(fh, size)
    def write(self, path, data, offset, fh):
        self._check(); os.lseek(fh, offset, 0); return os.write(fh, data)
    def truncate(self, path, length, fh=None):
        self._check()
        with open(self._p(path), 'r+') as f: f.truncate(length)
    def flush(self, path, fh): return 0
    def release(self, path, fh): return os.close(fh)
    def _hold(self):
        # While the control file says HOLD, an fsync waits (and its caller with it), saying so in <control>.held.
        if self._control() != 'HOLD': return
        open(self.control + '.held', 'w').close()
        while self._control() == 'HOLD': time.sleep(0.01)
    def fsync(self, path, datasync, fh):
        self._hold(); self._check(); return os.fsync(fh)
    def unlink(self, path): self._check(); return os.unlink(self._p(path))
    def mkdir(self, path, mode): return os.mkdir(self._p(path), mode)
    def rename(self, old, new): self._check(); return os.rename(self._p(old), self._p(new))
    def chmod(self, path, mode): return os.chmod(self._p(path), mode)
    def chown(self, path, uid, gid): return os.chown(self._p(path), uid, gid)
    def utimens(self, path, times=None): return os.utime(self._p(path), times)
    def statfs(self, path):
        stv = os.statvfs(self._p(path))
        return {k: getattr(stv, k) for k in ('f_bavail','f_bfree','f_blocks','f_bsize','f_favail','f_ffree','f_files','f_flag','f_frsize','f_namemax')}

if __name__ == '__main__':
    root, mountpoint, control = sys.argv[1:4]
    FUSE(FaultFS(root, control), mountpoint, foreground=True, nothreads=True, allow_other=True, attr_timeout=0, entry_timeout=0)
