import { expect, test } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';

test('LaTeX in the instruction and the agent messages reads as maths on the trajectory page; shell dollars stay text', async ({ page }) => {
  const lead = await seedUser('lead');
  const id = await storeTrajectoryDirect(
    uniqueName('maths'),
    buildTrajectory({
      format: 'openai',
      task: { name: uniqueName('pendulum'), instruction: 'Find the period $T$ of a pendulum of length $\\ell$ for small angles.' },
      policy: { model: 'physics-model' },
      steps: [
        { source: 'user', text: 'Derive it.' },
        {
          source: 'agent',
          text: 'For small angles $\\sin\\theta \\approx \\theta$, so\n$$\\ddot\\theta + \\frac{g}{\\ell}\\theta = 0 \\Rightarrow T = 2\\pi\\sqrt{\\ell/g}.$$\nCheck with echo $HOME costs $5.',
        },
      ],
    }),
  );
  await signIn(page, lead);
  await page.goto(`/trajectories/${id}`);
  const instruction = page.getByRole('region', { name: 'Instruction' });
  await expect(instruction.locator('.katex')).toHaveCount(2);
  const agent = page.getByTestId('step').nth(1);
  await expect(agent.locator('.katex-display')).toHaveCount(1);
  await expect(agent.locator('.katex').first()).toBeVisible();
  // the fraction is typeset (KaTeX's fraction layout), not raw TeX
  await expect(agent.locator('.mfrac')).toHaveCount(1);
  await expect(agent).not.toContainText('\\frac');
  await expect(agent).toContainText('echo $HOME costs $5.');
  await screenshot(page, 'trajectory-maths');
});
