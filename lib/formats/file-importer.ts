import { fileHead } from './chat-detect';
import { ItemError } from './chat-messages';
import type { Importer, ParsedItem, SourceFile } from './importer';
import { errorItem, trajectoryItem } from './item';
import type { Trajectory } from './trajectory';

/**
 * An importer for a format whose input is one file: detection from the file's head, a readable
 * error for a directory, and the file's items.
 */
export function fileImporter(spec: {
  format: Importer['format'];
  /** what a user calls the file, for the error on a directory: "a SWE-agent .traj file" */
  fileLabel: string;
  looksLike: (head: string) => boolean;
  parseFile: (file: SourceFile) => AsyncIterable<ParsedItem>;
}): Importer {
  return {
    format: spec.format,
    detect(probe) {
      const head = fileHead(probe);
      return head !== null && spec.looksLike(head);
    },
    async *parse(input) {
      if (input.kind !== 'file') {
        yield errorItem(input.dir.path, `expected ${spec.fileLabel}, found a directory`);
        return;
      }
      yield* spec.parseFile(input.file);
    },
  };
}

type ReadResult = { ok: true } | { ok: false; where: string; message: string };

/** The items of a file that holds one trajectory: the read's error, else the one item the read file makes. */
export function oneItemPerFile<R extends ReadResult>(
  read: (file: SourceFile) => Promise<R>,
  item: (read: Extract<R, { ok: true }>, path: string) => ParsedItem,
): (file: SourceFile) => AsyncIterable<ParsedItem> {
  return async function* (file) {
    const result = await read(file);
    if (!result.ok) {
      yield errorItem(result.where, result.message);
      return;
    }
    yield item(result as Extract<R, { ok: true }>, file.path);
  };
}

/** A whole file's trajectory as its item; an ItemError becomes an error item at its pointer, any other error is thrown on. */
export function wholeFileItem(build: () => Trajectory): ParsedItem {
  try {
    return trajectoryItem(build(), '/');
  } catch (error) {
    if (error instanceof ItemError) return errorItem(error.pointer, error.message);
    throw error;
  }
}
