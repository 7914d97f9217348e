import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { AgentServicesError } from "../../core/errors.js";
import { syncDirectory } from "./sync-directory.js";

/** An open journal file: the few calls `FileWriteJournal` makes on it (a `FileHandle` has them). */
export interface JournalFile {
  writev(buffers: Buffer[]): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file layer under `FileWriteJournal`: Node's `fs/promises` by default. A test passes one
 * that fails like a full or read-only disk (ENOSPC, EACCES) to see what the journal and the
 * service do then.
 *
 * @example
 * const full = { ...nodeJournalFiles, open: async () => { throw Object.assign(new Error("full"), { code: "ENOSPC" }); } };
 * new FileWriteJournal(dir, { files: full });
 */
export interface JournalFiles {
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Buffer>;
  /** Removes a file; no error when it is gone. */
  rm(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Opens for appending (`"a"`) or for writing from empty (`"w"`). */
  open(path: string, flags: "a" | "w"): Promise<JournalFile>;
  syncDirectory(path: string): Promise<void>;
}

/** {@link JournalFiles} on the real file system. */
export const nodeJournalFiles: JournalFiles = {
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  readdir: (path) => readdir(path),
  readFile: (path) => readFile(path),
  rm: (path) => rm(path, { force: true }),
  rename: (from, to) => rename(from, to),
  open: (path, flags) => open(path, flags, 0o600),
  syncDirectory,
};

/** The errno code of a file-system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A failed journal write as the service's error: a full disk is `insufficient_storage`, any other
 * file-system failure (read-only, permissions, I/O error) `store_unavailable`, both naming the
 * directory and the cause.
 */
export function journalWriteError(error: unknown, directory: string): AgentServicesError {
  const code = errnoCode(error);
  if (code === "ENOSPC" || code === "EDQUOT") {
    return new AgentServicesError(
      "insufficient_storage",
      `no space left for the write journal in ${directory} (${code}); writes are refused until space is freed`,
      { cause: error },
    );
  }
  return new AgentServicesError(
    "store_unavailable",
    `the write journal in ${directory} cannot be written (${code ?? String(error)})`,
    { cause: error },
  );
}

/**
 * A journal directory that cannot be used at startup, as a configuration error naming it: a file
 * in its place (`EEXIST`, `ENOTDIR`), no permission, a read-only file system.
 */
export function journalDirectoryError(error: unknown, directory: string): AgentServicesError {
  const code = errnoCode(error);
  const why =
    code === "EEXIST" || code === "ENOTDIR"
      ? "is not a directory (a file has its name, or one of its parents is a file)"
      : code === "EACCES" || code === "EPERM" || code === "EROFS"
        ? `cannot be written (${code}: check its owner and permissions, and that its disk is not read-only)`
        : code === "ENOSPC" || code === "EDQUOT"
          ? `cannot be written: its disk is full (${code})`
          : `cannot be used (${code ?? String(error)})`;
  return new AgentServicesError(
    "config_invalid",
    `the write journal's directory ${directory} ${why}; fix it or set another vector_store.chroma.path`,
    { cause: error },
  );
}
