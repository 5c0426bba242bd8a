import { videoPropsJob } from '../../../lib/queue/jobs/video-props';
import { prepareVideoProps } from '../../../lib/video/video-props-for';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/** Idempotent: props already stored and current are not derived again. */
export const videoPropsHandler: JobHandler<typeof videoPropsJob> = {
  contract: videoPropsJob,
  async handle({ trajectoryId, pacing }, ctx) {
    return goneIsPermanent(async () => {
      const { derived } = await prepareVideoProps(trajectoryId, { pacing });
      ctx.log(derived ? `derived the ${pacing} props of ${trajectoryId}` : `the ${pacing} props of ${trajectoryId} were stored already`);
      return { derived };
    }, `trajectory ${trajectoryId} does not exist`);
  },
};
