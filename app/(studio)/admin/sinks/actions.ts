'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { datasetFormatSchema } from '@/lib/datasets/formats';
import { createTrainingSink } from '@/lib/training/create-training-sink';
import { retryDeadDelivery } from '@/lib/training/retry-dead-delivery';
import { setTrainingSinkEnabled } from '@/lib/training/set-training-sink-enabled';
import { env } from '@/lib/env';
import { kickDelivery } from '@/lib/training/kick-delivery';
import { sinkKinds } from '@/lib/training/sink-config';
import { defineAction } from '../../../_server/action';

const optionalNumber = z.number().finite().optional();

/** Admins add a training sink; a webhook without a secret gets a generated one, shown once. */
export const createSinkAction = defineAction(
  'admin',
  z.object({
    projectId: z.string().min(1).max(64),
    name: z.string().trim().min(1, 'give the sink a name').max(80),
    kind: z.enum(sinkKinds),
    format: datasetFormatSchema,
    url: z.string().trim().max(2000).optional(),
    secret: z.string().max(200).optional(),
    path: z.string().trim().max(2000).optional(),
    bucket: z.string().trim().max(100).optional(),
    prefix: z.string().trim().max(500).optional(),
    campaignId: z.string().max(64).optional(),
    minReviews: optionalNumber,
    minAgreement: optionalNumber,
  }),
  async (input) => {
    const config =
      input.kind === 'webhook'
        ? { url: input.url ?? '' }
        : input.kind === 'directory'
          ? { path: input.path ?? '' }
          : { bucket: input.bucket ?? '', prefix: input.prefix ?? '' };
    const filter = {
      ...(input.campaignId ? { campaignId: input.campaignId } : {}),
      ...(input.minReviews !== undefined ? { minReviews: input.minReviews } : {}),
      ...(input.minAgreement !== undefined ? { minAgreement: input.minAgreement } : {}),
    };
    const sink = await createTrainingSink(
      input.projectId,
      { name: input.name, kind: input.kind, format: input.format, config, filter, secret: input.secret || undefined },
      { databaseUrl: env().DATABASE_URL! },
    );
    revalidatePath('/admin/sinks');
    return { id: sink.id, secret: input.kind === 'webhook' && !input.secret ? sink.secret : null };
  },
);

export const setSinkEnabledAction = defineAction(
  'admin',
  z.object({ sinkId: z.string().min(1).max(64), enabled: z.boolean() }),
  async ({ sinkId, enabled }) => {
    await setTrainingSinkEnabled(sinkId, enabled, { databaseUrl: env().DATABASE_URL! });
    revalidatePath('/admin/sinks');
    return { enabled };
  },
);

/** A dead delivery goes back to pending (same body, same key, fresh attempts) and the sink resumes. */
export const retryDeliveryAction = defineAction('admin', z.object({ deliveryId: z.string().min(1).max(64) }), async ({ deliveryId }) => {
  const { sinkId } = await retryDeadDelivery(deliveryId, { databaseUrl: env().DATABASE_URL! });
  revalidatePath('/admin/sinks');
  return { sinkId };
});

export const deliverNowAction = defineAction('admin', z.object({ sinkId: z.string().min(1).max(64) }), async ({ sinkId }) => {
  await kickDelivery(env().DATABASE_URL!, sinkId);
  return { sinkId };
});
