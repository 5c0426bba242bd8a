/** The AppError code a rejected promise carries (null when it resolves): what a refusal test asserts. */
export async function codeOf(work: Promise<unknown>): Promise<string | null> {
  try {
    await work;
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  }
}
