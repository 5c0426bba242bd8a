import { exportDataset } from './export-dataset';

/**
 * Test fixture (run as a child process by export-dataset.db.test.ts): starts an export one
 * item a page and SIGKILLs its own process after the second page has been written, i.e. in
 * the middle of writing the file. Usage: kill-mid-export.fixture.ts PROJECT_ID OUT_FILE
 */
const [projectId, out] = process.argv.slice(2);
let pages = 0;
await exportDataset({ format: 'trl-dpo', projectId, split: 'train' }, out!, {
  pageSize: 1,
  onProgress: () => {
    pages++;
    if (pages === 2) process.kill(process.pid, 'SIGKILL');
  },
});
console.log('finished without being killed');
