import type { JsonObject, JsonRecord } from "../../input/record.js";
import { actionTarget } from "./action.js";
import type { CompletedCall } from "./sessions.js";
import type { ToolCall } from "./tool-call.js";

/**
 * Background shells (FORMAT.md §5.4): a shell call with `isBackground` completes after a second or
 * two with a `shellId` in its success arm while its command runs on; a later `system`/
 * `task_notification` whose `task_id` equals that id (as text: the id is a number, the task_id a
 * string) marks its end, with `status`, `title` and sometimes `detail`.
 */
export interface BackgroundTask {
  /** The shell's id, as text (the notification's `task_id`). */
  taskId: string;
  callId: string;
  /** The command (the call's target). */
  command: string;
  /** When the call started (startedAtMs, else its started event's timestamp_ms). */
  startedMs: number | undefined;
  /** The line of the call's completion. */
  line: number;
}

/** A `system`/`task_notification`: a background task's end, linked to its shell when one is known. */
export interface BackgroundEnd {
  taskId: string;
  /** The background shell with that id in the session; undefined when none was seen. */
  task: BackgroundTask | undefined;
  status: string | undefined;
  title: string | undefined;
  detail: string | undefined;
  file: string;
  line: number;
  /** The notification's timestamp_ms. */
  endMs: number | undefined;
  /** From the call's start to the notification, when both times are in the log. */
  durationMs: number | undefined;
}

/** The id of a background shell call's task (its success arm's `shellId`), or undefined. */
export function backgroundTaskId(call: ToolCall): string | undefined {
  if (call.kind !== "shell" || call.status !== "success") return undefined;
  const id = call.outcome?.shellId;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** A `system`/`task_notification` event. */
export function isTaskNotification(ev: JsonObject): boolean {
  return ev.type === "system" && ev.subtype === "task_notification";
}

/**
 * The background shells of one session, linked to their ends. Memory: the tasks still running.
 * Call `endSession` when the session ends (its result, the next session, the end of its file).
 */
export class BackgroundTasks {
  private readonly running = new Map<string, BackgroundTask>();
  /** Every background task seen in the session, and how many of them ended. */
  count = 0;
  finished = 0;

  /** A completed call: the background task it started, if it is a background shell. */
  completed(done: CompletedCall): BackgroundTask | undefined {
    const taskId = backgroundTaskId(done.call);
    if (taskId === undefined) return undefined;
    const task: BackgroundTask = { taskId, callId: done.callId, command: actionTarget(done.call), startedMs: startedMsOf(done), line: done.rec.line };
    this.running.set(taskId, task);
    this.count++;
    return task;
  }

  /** A task_notification: the task it ends (taken off the running ones). */
  notified(rec: JsonRecord): BackgroundEnd | undefined {
    const ev = rec.value;
    if (!isTaskNotification(ev)) return undefined;
    const taskId = typeof ev.task_id === "string" ? ev.task_id : typeof ev.task_id === "number" ? String(ev.task_id) : "";
    const task = this.running.get(taskId);
    if (task !== undefined) {
      this.running.delete(taskId);
      this.finished++;
    }
    const endMs = typeof ev.timestamp_ms === "number" && Number.isFinite(ev.timestamp_ms) ? ev.timestamp_ms : undefined;
    return {
      taskId,
      task,
      status: text(ev.status),
      title: text(ev.title),
      detail: text(ev.detail),
      file: rec.file,
      line: rec.line,
      endMs,
      durationMs: endMs !== undefined && task?.startedMs !== undefined ? endMs - task.startedMs : undefined,
    };
  }

  /** A running task by id (an awaitToolCall names the one it waits on). */
  get(taskId: string): BackgroundTask | undefined {
    return this.running.get(taskId);
  }

  /** The session ended: the tasks whose end was never seen (in start order); then all is forgotten. */
  endSession(): BackgroundTask[] {
    const left = [...this.running.values()];
    this.running.clear();
    this.count = 0;
    this.finished = 0;
    return left;
  }
}

function startedMsOf(done: CompletedCall): number | undefined {
  if (done.call.startedAtMs !== undefined) return done.call.startedAtMs;
  return done.started?.timestampMs;
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}
