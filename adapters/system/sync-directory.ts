import { constants } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Makes a directory's entries durable (a file created or renamed in it survives a machine crash
 * only once its directory is synced).
 *
 * @example
 * await rename(temporary, path);
 * await syncDirectory(dirname(path));
 */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the file at `path` durably and atomically: `fill` writes the new content to a
 * temporary file beside it (mode 0600), which is synced, renamed over `path`, and the directory
 * synced. A crash leaves the old file or the new one, never a mix; a failed write, sync or
 * rename removes the temporary file (on a full disk it would keep the disk full, up to the size
 * of the file: a replica's engine snapshot is ~1 GB at 1,000,000 memories).
 *
 * @example
 * await replaceFileDurably(path, (handle) => handle.writeFile(JSON.stringify(data), "utf8"));
 */
export async function replaceFileDurably(
  path: string,
  fill: (handle: FileHandle) => Promise<unknown>,
): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w", 0o600);
  try {
    try {
      await fill(handle);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
