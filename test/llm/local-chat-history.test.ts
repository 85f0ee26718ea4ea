import { toLocalChat } from '../../activities/llm/local/chat-history';

describe('toLocalChat', () => {
  it('puts system text first, earlier turns in the history and the last user message as the prompt', () => {
    expect(
      toLocalChat([
        { role: 'system', content: 'Answer in JSON.' },
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: '{"sql": 1}' },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'That was wrong; answer again.' },
      ]),
    ).toEqual({
      history: [
        { type: 'system', text: 'Answer in JSON.\n\nBe brief.' },
        { type: 'user', text: 'Q1' },
        { type: 'model', response: ['{"sql": 1}'] },
      ],
      prompt: 'That was wrong; answer again.',
    });
  });

  it('has no system item when there is no system message', () => {
    expect(toLocalChat([{ role: 'user', content: 'hi' }])).toEqual({ history: [], prompt: 'hi' });
  });
});
