import { AppError } from '../../../lib/errors';
import { videoPropsJob } from '../../../lib/queue/jobs/video-props';
import { prepareVideoProps } from '../../../lib/video/video-props-for';
import { PermanentJobError, type JobHandler } from '../../job-handler';

/** Idempotent: props already stored and current are not derived again. */
export const videoPropsHandler: JobHandler<typeof videoPropsJob> = {
  contract: videoPropsJob,
  async handle({ trajectoryId, pacing }, ctx) {
    try {
      const { derived } = await prepareVideoProps(trajectoryId, { pacing });
      ctx.log(derived ? `derived the ${pacing} props of ${trajectoryId}` : `the ${pacing} props of ${trajectoryId} were stored already`);
      return { derived };
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw new PermanentJobError(`trajectory ${trajectoryId} does not exist`);
      throw error;
    }
  },
};
