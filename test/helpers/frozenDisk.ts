// A real file system that can be frozen, for the tests of a disk that stops answering: an ext4 image on a
// loop device, mounted on a temporary folder, frozen with util-linux's fsfreeze (the kernel then blocks
// every write to it until it is thawed, as a stalled network drive or a dying disk does). Needs root and
// loop devices, which the test machine has; the tests skip without them.
//
// A write blocked by the freeze blocks its thread in the kernel, where no JavaScript timer can reach it:
// freeze() therefore starts a separate process that thaws the disk after `ms` whatever happens here, and
// unmount() thaws it too, so a failing test never leaves a frozen mount behind.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './testServer.ts';

export interface FreezableDisk {
  dir: string;
  /** Freezes the file system now; it thaws at `thawsAt` (ms since the epoch); the promise ends once it has. */
  freeze(ms: number): { thawsAt: number; thawed: Promise<void> };
  thaw(): void;
  unmount(): void;
}

function tryRun(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Mounts a fresh ext4 image of `sizeMb` on a temporary folder, or undefined where that is not allowed. */
export function mountFreezableDisk(sizeMb = 64): FreezableDisk | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const image = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-freeze-img-')), 'disk.img');
  const dir = tempDir('folio-freezable-disk-');
  const cleanup = () => {
    fs.rmSync(path.dirname(image), { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  fs.writeFileSync(image, '');
  fs.truncateSync(image, sizeMb * 2 ** 20);
  if (!tryRun('mkfs.ext4', ['-q', '-F', image]) || !tryRun('mount', ['-o', 'loop', image, dir])) {
    cleanup();
    return undefined;
  }
  // Probe that freezing works here (a container may refuse the ioctl).
  if (!tryRun('fsfreeze', ['-f', dir])) {
    tryRun('umount', [dir]);
    cleanup();
    return undefined;
  }
  tryRun('fsfreeze', ['-u', dir]);
  const thaw = () => void tryRun('fsfreeze', ['-u', dir]);
  return {
    dir,
    freeze(ms) {
      execFileSync('fsfreeze', ['-f', dir]);
      const thawsAt = Date.now() + ms;
      const thawer = spawn('sh', ['-c', `sleep ${(ms / 1000).toFixed(3)}; fsfreeze -u '${dir}'`], { stdio: 'ignore', detached: true });
      const thawed = new Promise<void>((resolve) => thawer.once('exit', () => resolve()));
      return { thawsAt, thawed };
    },
    thaw,
    unmount() {
      thaw();
      tryRun('umount', ['-l', dir]);
      cleanup();
    },
  };
}
