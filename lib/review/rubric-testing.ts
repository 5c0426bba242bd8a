/** The accept/reject verdict question the tests' rubrics share, its prompt worded as each rubric words it. */
export function verdictQuestion(prompt: string) {
  return {
    id: 'verdict',
    type: 'single' as const,
    prompt,
    options: [
      { value: 'accept', label: 'Accept' },
      { value: 'reject', label: 'Reject' },
    ],
  };
}
