import { describe, expect, it } from 'vitest';
import { samplePng } from '../../test/fixtures/sample-files';
import {
  cappedMaxTokens,
  modelChoiceNote,
  requestTexts,
  samplingModelMessages,
  withEditedText,
  type SamplingRequest,
} from './sampling';

const request: SamplingRequest = {
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Summarise this' },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Shorter, please.' }] },
  ],
  systemPrompt: 'Be brief.',
  maxTokens: 500,
  modelHints: [],
  priorities: {},
};

describe('sampling requests as model messages', () => {
  it('keeps roles, text and images as the Messages API takes them', () => {
    const converted = samplingModelMessages(request.messages);
    expect(converted).toEqual({
      ok: true,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Summarise this' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Shorter, please.' }] },
      ],
    });
  });

  it('refuses what the API does not take, saying what', () => {
    const audio = samplingModelMessages([
      { role: 'user', content: [{ type: 'audio', mimeType: 'audio/wav', data: 'UklG' }] },
    ]);
    expect(audio).toEqual({ ok: false, reason: 'it sent audio, which the model API does not take' });
    const tiff = samplingModelMessages([
      { role: 'user', content: [{ type: 'image', mimeType: 'image/tiff', data: 'x' }] },
    ]);
    expect(tiff).toEqual({
      ok: false,
      reason: 'it sent an image of type image/tiff, which the model API does not take',
    });
    const tall = samplingModelMessages([
      {
        role: 'user',
        content: [{ type: 'image', mimeType: 'image/png', data: samplePng(100, 9000).toString('base64') }],
      },
    ]);
    expect(tall).toEqual({
      ok: false,
      reason: 'it sent an image the model API refuses: it is 100x9000 px and the API takes images up to 8000x8000 px',
    });
    expect(samplingModelMessages([])).toEqual({ ok: false, reason: 'it sent no messages' });
    expect(samplingModelMessages([{ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }])).toEqual({
      ok: false,
      reason: 'its first message is not from the user',
    });
  });
});

describe('the call the person approves', () => {
  it('caps max tokens at the person’s own setting', () => {
    expect(cappedMaxTokens(100, 8192)).toBe(100);
    expect(cappedMaxTokens(1_000_000, 8192)).toBe(8192);
    expect(cappedMaxTokens(0, 8192)).toBe(1);
  });

  it('says when the server asked for a model the person’s model is not', () => {
    expect(modelChoiceNote([], 'claude-sonnet-4-5')).toBeUndefined();
    expect(modelChoiceNote(['claude-sonnet', 'gpt-9'], 'claude-sonnet-4-5')).toBeUndefined();
    expect(modelChoiceNote(['gpt-9-ultra'], 'claude-sonnet-4-5')).toBe(
      'It asked for "gpt-9-ultra"; your model claude-sonnet-4-5 answers instead.',
    );
  });

  it('puts the person’s edits in place of the texts, keeping images and roles', () => {
    expect(requestTexts(request)).toEqual(['Summarise this', 'Sure.', 'Shorter, please.']);
    const edited = withEditedText(request, { systemPrompt: 'Be kind.', texts: ['Summarise that', 'Sure.', 'Longer.'] });
    expect(edited.systemPrompt).toBe('Be kind.');
    expect(edited.messages[0]!.content).toEqual([
      { type: 'text', text: 'Summarise that' },
      { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
    ]);
    expect(edited.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(requestTexts(edited)).toEqual(['Summarise that', 'Sure.', 'Longer.']);
  });
});
