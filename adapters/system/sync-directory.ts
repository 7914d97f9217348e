import { constants } from "node:fs";
import { open } from "node:fs/promises";

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
