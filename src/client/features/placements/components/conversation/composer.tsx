import * as React from 'react';
import { Paperclip, Send, X } from 'lucide-react';
import { MESSAGE_TEXT_MAX, type MessageSide } from '@shared/messages';
import { MESSAGE_EMPTY } from '@shared/schemas/message';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { usePostMessage } from '../../api/post-message';

const ACCEPT =
  '.pdf,.doc,.docx,.png,.jpg,.jpeg,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/png,image/jpeg';

/** Writing a message: text up to 5,000 characters and an optional file; Ctrl/⌘+Enter sends. */
export function Composer({ side, paymentId }: { side: MessageSide; paymentId: string }) {
  const post = usePostMessage(side, paymentId);
  const [text, setText] = React.useState('');
  const [file, setFile] = React.useState<File | null>(null);
  const [problem, setProblem] = React.useState<string | null>(null);
  const fileInput = React.useRef<HTMLInputElement>(null);
  const textId = React.useId();
  const problemId = React.useId();

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };
  const send = () => {
    if (post.isPending) return;
    if (!text.trim() && !file) return setProblem(MESSAGE_EMPTY);
    setProblem(null);
    post.mutate(
      { text: text.trim(), file },
      {
        onSuccess: () => {
          setText('');
          clearFile();
        },
        onError: (err) => setProblem(errorMessage(err, 'Failed to send the message')),
      },
    );
  };

  return (
    <form
      className="space-y-2 border-t p-3"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label htmlFor={textId} className="sr-only">
        Message
      </label>
      <Textarea
        id={textId}
        rows={3}
        value={text}
        maxLength={MESSAGE_TEXT_MAX}
        placeholder="Write a message…"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(e) => setText(e.target.value.slice(0, MESSAGE_TEXT_MAX))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            send();
          }
        }}
        className="min-h-20 resize-y"
      />
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          // chosen through the "Attach file" button: the input itself is neither a tab stop nor read out twice
          tabIndex={-1}
          aria-hidden
          id={`${textId}-file`}
          data-testid="message-file"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => fileInput.current?.click()}
          disabled={post.isPending}
        >
          <Paperclip /> Attach file
        </Button>
        {file && (
          <span
            className="inline-flex min-w-0 max-w-full items-center gap-1 rounded-md bg-muted px-2 py-1 text-xs"
            data-testid="chosen-file"
          >
            <span className="min-w-0 truncate">{file.name}</span>
            <button
              type="button"
              onClick={clearFile}
              aria-label={`Remove ${file.name}`}
              className="rounded p-0.5 hover:bg-accent"
            >
              <X className="size-3.5" />
            </button>
          </span>
        )}
        <span className="ml-auto text-xs text-muted-foreground tabular-nums" aria-live="polite">
          {text.length > MESSAGE_TEXT_MAX - 500
            ? `${text.length.toLocaleString('en-US')} / ${MESSAGE_TEXT_MAX.toLocaleString('en-US')}`
            : ''}
        </span>
        <Button type="submit" size="sm" disabled={post.isPending}>
          <Send /> {post.isPending ? 'Sending...' : 'Send'}
        </Button>
      </div>
    </form>
  );
}
