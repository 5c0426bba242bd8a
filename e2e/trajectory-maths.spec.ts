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

test('a long agent message: its excerpt typeset by the server, "Show all" typesets the rest in the browser and "Show less" goes back', async ({
  page,
}) => {
  const lead = await seedUser('lead');
  const lines = Array.from({ length: 50 }, (_, i) =>
    i === 44 ? 'Line 45: the energy is $E = \\frac{1}{2} m v^2$.' : `Line ${i + 1}: $x_{${i}}$ noted.`,
  );
  const id = await storeTrajectoryDirect(
    uniqueName('long-message'),
    buildTrajectory({
      format: 'openai',
      task: { name: uniqueName('energy'), instruction: 'Find the kinetic energy.' },
      policy: { model: 'physics-model' },
      steps: [{ source: 'agent', text: lines.join('\n') }],
    }),
  );
  await signIn(page, lead);
  const response = await page.goto(`/trajectories/${id}`);
  // typeset in the server's HTML: the first 40 lines' maths, none of line 45's
  const html = await response!.text();
  expect(html).toContain('class="katex"');
  const step = page.getByTestId('step').first();
  await expect(step).toContainText('Line 40');
  await expect(step).not.toContainText('Line 45');
  await expect(step.locator('.katex')).toHaveCount(40);
  await step.getByRole('button', { name: /Show all \(50 lines/ }).click();
  await expect(step).toContainText('Line 45: the energy is');
  await expect(step.locator('.mfrac')).toHaveCount(1);
  await expect(step.locator('.katex')).toHaveCount(50);
  await step.getByRole('button', { name: 'Show less' }).click();
  await expect(step).not.toContainText('Line 45');
  await expect(step.locator('.katex')).toHaveCount(40);
});
