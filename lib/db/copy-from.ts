import type pg from 'pg';

interface CopyConnection extends pg.Connection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/**
 * `COPY ... FROM STDIN` with data in memory, through node-postgres's submittable hooks (the
 * protocol: Query, CopyInResponse, CopyData..., CopyDone, CommandComplete, ReadyForQuery).
 */
class CopyIn implements pg.Submittable {
  callback?: (error: Error | null) => void;
  constructor(
    private readonly sql: string,
    private readonly pieces: Iterable<string | Buffer>,
  ) {}
  submit(connection: pg.Connection): void {
    connection.query(this.sql);
  }
  handleCopyInResponse(connection: CopyConnection): void {
    try {
      for (const piece of this.pieces) connection.sendCopyFromChunk(typeof piece === 'string' ? Buffer.from(piece) : piece);
      connection.endCopyFrom();
    } catch (error) {
      connection.sendCopyFail(`client error: ${(error as Error).message}`);
    }
  }
  // node-postgres detaches a query on ErrorResponse (no ReadyForQuery follows for it): answer now
  handleError(error: Error): void {
    this.done(error);
  }
  handleReadyForQuery(): void {
    this.done(null);
  }
  private done(error: Error | null): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(error);
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Runs `COPY <table> (<columns>) FROM STDIN` (text format) with the given pieces of COPY text. */
export function copyFrom(client: pg.ClientBase, sql: string, pieces: Iterable<string | Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const copy = new CopyIn(sql, pieces);
    copy.callback = (error) => (error ? reject(error) : resolve());
    client.query(copy);
  });
}
