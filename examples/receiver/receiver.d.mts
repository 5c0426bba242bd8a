export interface ReceiverFaults {
  fail500: number;
  delayMs: number;
  delayCount: number;
  closeMidBody: number;
  dropAfterStore: number;
}
export interface ReceiverStats {
  requests: number;
  stored: number;
  duplicates: number;
  rejected: number;
  rows: number;
}
export interface Receiver {
  url: string;
  port: number;
  faults: ReceiverFaults;
  stats: ReceiverStats;
  close(): Promise<void>;
}
export function sign(secret: string, body: string | Uint8Array): string;
export function startReceiver(options: { port?: number; host?: string; secret: string; out: string }): Promise<Receiver>;
