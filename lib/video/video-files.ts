/** Where a video's final MP4 is stored (the render, the combine and their tests agree on it). */
export function videoStorageKey(videoId: string): string {
  return `videos/${videoId}.mp4`;
}

/** The failure recorded on a video or chunk row: the error's first lines, at most 500 characters. */
export function failureText(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  return message.split('\n').slice(0, 3).join(' ').slice(0, 500);
}

/** Where one chunk of a long video is stored until the combine (MPEG-TS, so chunks concatenate seamlessly). */
export function chunkStorageKey(videoId: string, index: number): string {
  return `videos/${videoId}/chunk-${String(index).padStart(4, '0')}.ts`;
}
