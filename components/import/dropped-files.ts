import type { PickedFile } from './upload-plan';

/** A file the browser handed over, with its path in what was dropped or picked ('' for a loose file). */
export interface BrowserPickedFile extends PickedFile {
  file: File;
}

/**
 * Everything dropped: loose files as they are, and folders walked (the File and Directory Entries
 * API, `webkitGetAsEntry`, which every current browser has), each file with its relative path
 * (`runs/trial-1/agent/trajectory.json`), so folder formats keep their layout.
 */
export async function filesOfDrop(data: DataTransfer): Promise<BrowserPickedFile[]> {
  const entries = Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry());
  if (entries.every((e) => e === null)) return Array.from(data.files, (file) => ({ file, relativePath: '' }));
  const out: BrowserPickedFile[] = [];
  for (const entry of entries) if (entry) await walk(entry, '', out, true);
  return out;
}

async function walk(entry: FileSystemEntry, parent: string, out: BrowserPickedFile[], top: boolean): Promise<void> {
  const path = parent ? `${parent}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativePath: top ? '' : path });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in pages (100 at a time in Chromium) until an empty one
  for (;;) {
    const page = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (page.length === 0) break;
    for (const child of page.sort((a, b) => a.name.localeCompare(b.name))) await walk(child, path, out, false);
  }
}
