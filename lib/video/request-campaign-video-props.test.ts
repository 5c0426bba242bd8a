import { afterEach, describe, expect, it, vi } from 'vitest';
import { setEnv, snapshotEnv } from '../env';
import { requestCampaignVideoProps } from './request-campaign-video-props';

describe('requestCampaignVideoProps', () => {
  let restore = snapshotEnv();
  afterEach(() => {
    restore();
    restore = snapshotEnv();
    vi.restoreAllMocks();
  });

  it('a job that cannot be queued does not fail the campaign just created: it is logged with the campaign', async () => {
    setEnv('DATABASE_URL', undefined);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(requestCampaignVideoProps('cmp-1')).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain('campaign cmp-1: the campaign.video-props job was not queued');
    expect(String(logged.mock.calls[0]![1])).toContain('DATABASE_URL is not set');
  });
});
