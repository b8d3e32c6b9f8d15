// A small real file system for the tests of a full or read-only disk: a tmpfs of a fixed size mounted on a
// temporary folder (needs root, which the test machine is; the tests skip without it). fill() writes a
// filler file until the file system answers ENOSPC; free() removes it; readOnly()/writable() remount it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './testServer.ts';

export interface SmallDisk {
  dir: string;
  fill(): void;
  free(): void;
  readOnly(): void;
  writable(): void;
  unmount(): void;
}

/** True when this process may mount a tmpfs (root on Linux). */
export function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = tempDir('folio-mount-probe-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

export function mountSmallDisk(sizeMb: number): SmallDisk {
  const dir = tempDir('folio-small-disk-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler.bin');
  const remount = (mode: 'ro' | 'rw') => execFileSync('mount', ['-o', `remount,${mode}`, dir]);
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      try {
        for (const size of [1 << 20, 1 << 12, 1]) {
          const chunk = Buffer.alloc(size, 1);
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free: () => fs.rmSync(filler, { force: true }),
    readOnly: () => remount('ro'),
    writable: () => remount('rw'),
    unmount() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
