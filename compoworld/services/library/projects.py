"""Projects: projects with members and dates, tasks with assignee/due date/status, and task comments (operations)."""

from __future__ import annotations

from operator import itemgetter
from typing import Iterable, Literal

from typing_extensions import TypedDict

from compoworld.services import Collection, Service, ToolError, tool
from compoworld.services.fake import NEAR_DUPLICATES, DataGen, add_days
from compoworld.services.library._search import Haystack, page_by
from compoworld.services.library._types import (
    CompanyName, Date, DateTime, Email, Id, Limit, Money, Offset, Page, Query, Text, Title, page,
)

ProjectId = Id("projects", "project")
TaskId = Id("projects", "task")
Status = Literal["todo", "in_progress", "done"]
Priority = Literal["low", "medium", "high"]
# Work moves forward; an in-progress task may be put back to todo, but done is final.
NEXT_STATUS: dict[str, set[str]] = {"todo": {"in_progress"}, "in_progress": {"done", "todo"}, "done": set()}
_PROJECT_TEXT = Haystack("name", "description")
_TASK_TEXT = Haystack("title", "description")
_CREATED = itemgetter("created_at")


def _due_key(t: dict) -> str:
    return t["due_date"] or "~"  # undated tasks sort last ('~' follows every digit)


class Project(TypedDict):
    id: ProjectId
    name: Title
    description: Text
    client_company: CompanyName | None
    owner_email: Email
    members: list[Email]
    start_date: Date
    end_date: Date | None
    budget: Money
    status: Literal["active", "archived"]


class Task(TypedDict):
    id: TaskId
    project_id: ProjectId
    title: Title
    description: Text
    assignee_email: Email | None
    due_date: Date | None
    priority: Priority
    status: Status
    created_at: DateTime
    updated_at: DateTime


class Comment(TypedDict):
    id: Id("projects", "comment")
    task_id: TaskId
    author_email: Email
    body: Text
    created_at: DateTime


TASKS = ["Kickoff meeting", "Collect requirements", "Draft proposal", "Send contract", "Set up workspace", "Data migration",
         "User training", "Security review", "Go-live checklist", "Budget sign-off", "Write launch email", "Retrospective"]


class Projects(Service):
    name = "projects"
    domain = "operations"
    description = "Project tracker: projects with members and timelines, tasks with assignees, due dates and status, and comments."
    tables = {
        "projects": Collection(Project, "project", "prj"),
        "tasks": Collection(Task, "task", "task"),
        "comments": Collection(Comment, "comment", "cmt"),
    }

    def generate(self, gen: DataGen) -> dict[str, Iterable[dict]]:
        w = gen.world
        projects: list[dict] = []
        tasks: list[dict] = []
        comments: list[dict] = []
        names: set[str] = set()
        dupes = [c for c in w.companies if c.name in NEAR_DUPLICATES]  # projects for look-alike clients are a trap
        clients = dupes + gen.sample([c for c in w.companies if c not in dupes], gen.n(6))
        for i in range(gen.n(10)):
            co = clients[i] if i < len(clients) and gen.chance(0.7) else None
            name = f"{co.name} {gen.pick(['onboarding', 'rollout', 'renewal', 'integration'])}" if co else f"{gen.title()} initiative"
            if name in names:
                continue
            names.add(name)
            members = gen.sample(w.employees, gen.int(3, 6))
            start = gen.date(-120, 20)
            end = add_days(start, gen.int(30, 180)) if gen.chance(0.7) else None
            archived = gen.chance(0.15)

            def due(lo: int, hi: int) -> str:
                d = add_days(start, gen.int(lo, hi))
                return min(d, end) if end else d

            pid = f"prj_{len(projects) + 1:04d}"
            projects.append({"id": pid, "name": name, "description": gen.sentence(), "client_company": co.name if co else None,
                             "owner_email": members[0].email, "members": [m.email for m in members], "start_date": start,
                             "end_date": end, "budget": float(gen.int(4, 120) * 1000),
                             "status": "archived" if archived else "active"})
            for title in gen.sample(TASKS, gen.int(2, 6)):
                status = "done" if archived else gen.pick(["todo", "todo", "in_progress", "done"])
                created = gen.datetime(-100, -5)
                tid = f"task_{len(tasks) + 1:04d}"
                assignee = gen.pick(members).email if gen.chance(0.8) else None
                tasks.append({"id": tid, "project_id": pid, "title": title, "description": gen.sentence(), "assignee_email": assignee,
                              "due_date": due(3, 60) if gen.chance(0.85) else None,
                              "priority": gen.pick(["low", "medium", "medium", "high"]), "status": status,
                              "created_at": created, "updated_at": gen.datetime(-4, -1)})
                if status == "done" and not archived and gen.chance(0.3):  # a follow-up supersedes the finished task
                    tasks.append({"id": f"task_{len(tasks) + 1:04d}", "project_id": pid, "title": f"{title} (v2)",
                                  "description": f"Redo of {tid}: {gen.sentence()}", "assignee_email": gen.pick(members).email,
                                  "due_date": due(30, 90), "priority": "high", "status": "todo",
                                  "created_at": gen.datetime(-3, -1), "updated_at": gen.datetime(-1, -1)})
                for _ in range(gen.int(0, 2)):
                    comments.append({"id": f"cmt_{len(comments) + 1:04d}", "task_id": tid, "author_email": gen.pick(members).email,
                                     "body": gen.sentence(), "created_at": gen.datetime(-4, -1)})
        return {"projects": projects, "tasks": tasks, "comments": comments}

    # -- helpers -------------------------------------------------------------------------------
    def _active(self, project_id: str) -> dict:
        p = self.db["projects"].require(project_id)
        if p["status"] == "archived":
            raise ToolError(f"project '{p['name']}' is archived; it is read-only")
        return p

    def _check_due(self, p: dict, due: str | None) -> None:
        if due is None:
            return
        if due < p["start_date"]:
            raise ToolError(f"due date {due} is before the project starts ({p['start_date']})")
        if p["end_date"] and due > p["end_date"]:
            raise ToolError(f"due date {due} is after the project ends ({p['end_date']})")

    def _check_member(self, p: dict, email: str | None) -> None:
        if email is not None and email not in p["members"]:
            raise ToolError(f"{email} is not a member of '{p['name']}'; add them with add_member first")

    # -- projects ------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_projects(self, query: Query = "", member: Email | None = None, client_company: CompanyName | None = None,
                      status: Literal["active", "archived"] | None = None, limit: Limit = 20, offset: Offset = 0) -> Page[Project]:
        """List projects.

        Args:
            query: Text to match in the name or description.
            member: Only projects this address is a member of.
            client_company: Only projects for this client company.
            status: Only active or only archived projects.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = list(self.db["projects"])
        if member is not None:
            rows = [p for p in rows if member in p["members"]]
        if client_company is not None:
            rows = [p for p in rows if p["client_company"] == client_company]
        if status is not None:
            rows = [p for p in rows if p["status"] == status]
        return page(_PROJECT_TEXT.filter(rows, query), limit, offset)

    @tool(read_only=True)
    def get_project(self, project_id: ProjectId) -> Project:
        """Get one project by id.

        Args:
            project_id: The project's id.
        """
        return self.db["projects"].require(project_id)

    @tool
    def create_project(self, name: Title, owner: Email, start_date: Date, end_date: Date | None = None, members: list[Email] = [],
                       client_company: CompanyName | None = None, budget: Money = 0.0, description: Text = "") -> Project:
        """Create a project; the owner is a member. Names are unique and the end date cannot precede the start.

        Args:
            name: Project name.
            owner: Address of the project owner.
            start_date: First day (YYYY-MM-DD).
            end_date: Last day, if known.
            members: Addresses of the other members.
            client_company: The client the project is for, if any.
            budget: Budget in USD.
            description: What the project is about.
        """
        if any(p["name"].lower() == name.lower() for p in self.db["projects"]):
            raise ToolError(f"a project named '{name}' already exists")
        if end_date is not None and end_date < start_date:
            raise ToolError(f"end_date {end_date} is before start_date {start_date}")
        return self.db["projects"].insert({"name": name, "description": description, "client_company": client_company,
                                           "owner_email": owner, "members": list(dict.fromkeys([owner, *members])),
                                           "start_date": start_date, "end_date": end_date, "budget": budget, "status": "active"})

    @tool(idempotent=True)
    def update_project(self, project_id: ProjectId, end_date: Date | None = None, budget: Money | None = None,
                       description: Text | None = None) -> Project:
        """Change an active project's end date, budget or description. The end date cannot precede the start
        or cut off a task's due date.

        Args:
            project_id: The project.
            end_date: New last day (YYYY-MM-DD).
            budget: New budget in USD.
            description: New description.
        """
        p = self._active(project_id)
        if end_date is not None:
            if end_date < p["start_date"]:
                raise ToolError(f"end_date {end_date} is before the project start {p['start_date']}")
            late = [t["id"] for t in self.db["tasks"] if t["project_id"] == project_id and t["status"] != "done"
                    and t["due_date"] is not None and t["due_date"] > end_date]
            if late:
                raise ToolError(f"tasks {', '.join(late[:5])} are due after {end_date}; move their due dates first")
        changes = {k: v for k, v in {"end_date": end_date, "budget": budget, "description": description}.items() if v is not None}
        if not changes:
            raise ToolError("nothing to update: give end_date, budget or description")
        return self.db["projects"].update(project_id, **changes)

    @tool(idempotent=True)
    def add_member(self, project_id: ProjectId, email: Email) -> Project:
        """Add someone to a project's members.

        Args:
            project_id: The project.
            email: Address of the new member.
        """
        p = self._active(project_id)
        if email in p["members"]:
            return p
        return self.db["projects"].update(project_id, members=[*p["members"], email])

    @tool(idempotent=True)
    def archive_project(self, project_id: ProjectId) -> Project:
        """Archive a project. Every task must be done first.

        Args:
            project_id: The project.
        """
        p = self._active(project_id)
        open_tasks = [t["id"] for t in self.db["tasks"] if t["project_id"] == project_id and t["status"] != "done"]
        if open_tasks:
            raise ToolError(f"'{p['name']}' still has {len(open_tasks)} unfinished tasks ({', '.join(open_tasks[:5])})")
        return self.db["projects"].update(project_id, status="archived")

    # -- tasks ---------------------------------------------------------------------------------
    @tool(read_only=True)
    def list_tasks(self, project_id: ProjectId | None = None, assignee: Email | None = None, status: Status | None = None,
                   due_before: Date | None = None, due_after: Date | None = None, query: Query = "",
                   limit: Limit = 20, offset: Offset = 0) -> Page[Task]:
        """List tasks by due date (undated last), filtered by project, assignee, status, due window or text.

        Args:
            project_id: Only tasks of this project.
            assignee: Only tasks assigned to this address.
            status: Only tasks in this status.
            due_before: Only tasks due on or before this day.
            due_after: Only tasks due on or after this day.
            query: Text to match in the title or description.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        rows = list(self.db["tasks"]) if project_id is None else [t for t in self.db["tasks"] if t["project_id"] == project_id]
        if assignee is not None:
            rows = [t for t in rows if t["assignee_email"] == assignee]
        if status is not None:
            rows = [t for t in rows if t["status"] == status]
        if due_before is not None:
            rows = [t for t in rows if t["due_date"] is not None and t["due_date"] <= due_before]
        if due_after is not None:
            rows = [t for t in rows if t["due_date"] is not None and t["due_date"] >= due_after]
        return page_by(_TASK_TEXT.filter(rows, query), _due_key, limit, offset)

    @tool(read_only=True)
    def get_task(self, task_id: TaskId) -> Task:
        """Get one task by id.

        Args:
            task_id: The task's id.
        """
        return self.db["tasks"].require(task_id)

    @tool
    def create_task(self, project_id: ProjectId, title: Title, assignee: Email | None = None, due_date: Date | None = None,
                    priority: Priority = "medium", description: Text = "") -> Task:
        """Add a task (status todo) to an active project. The assignee must be a project member and the due date must
        fall within the project's dates.

        Args:
            project_id: The project.
            title: Task title.
            assignee: Address of the member doing it.
            due_date: Due date (YYYY-MM-DD), not before the project start.
            priority: low, medium or high.
            description: Details.
        """
        p = self._active(project_id)
        self._check_member(p, assignee)
        self._check_due(p, due_date)
        now = self.now()
        return self.db["tasks"].insert({"project_id": project_id, "title": title, "description": description, "assignee_email": assignee,
                                        "due_date": due_date, "priority": priority, "status": "todo", "created_at": now, "updated_at": now})

    @tool(idempotent=True)
    def update_task(self, task_id: TaskId, title: Title | None = None, description: Text | None = None,
                    due_date: Date | None = None, priority: Priority | None = None) -> Task:
        """Change a task's title, description, due date or priority. Done tasks cannot change.

        Args:
            task_id: The task.
            title: New title.
            description: New description.
            due_date: New due date, within the project's dates.
            priority: New priority.
        """
        t = self.db["tasks"].require(task_id)
        if t["status"] == "done":
            raise ToolError(f"task {task_id} is done; create a follow-up task instead")
        p = self._active(t["project_id"])
        self._check_due(p, due_date)
        changes = {k: v for k, v in {"title": title, "description": description, "due_date": due_date, "priority": priority}.items()
                   if v is not None}
        if not changes:
            raise ToolError("nothing to update: give title, description, due_date or priority")
        return self.db["tasks"].update(task_id, **changes, updated_at=self.now())

    @tool(idempotent=True)
    def assign_task(self, task_id: TaskId, assignee: Email | None) -> Task:
        """Assign a task to a project member, or unassign it with null.

        Args:
            task_id: The task.
            assignee: Address of the member, or null to unassign.
        """
        t = self.db["tasks"].require(task_id)
        if t["status"] == "done":
            raise ToolError(f"task {task_id} is done and cannot be reassigned")
        p = self._active(t["project_id"])
        self._check_member(p, assignee)
        return self.db["tasks"].update(task_id, assignee_email=assignee, updated_at=self.now())

    @tool
    def set_task_status(self, task_id: TaskId, status: Status) -> Task:
        """Move a task along todo -> in_progress -> done (in_progress may go back to todo; done is final).
        A task needs an assignee to start.

        Args:
            task_id: The task.
            status: The new status.
        """
        t = self.db["tasks"].require(task_id)
        self._active(t["project_id"])
        allowed = NEXT_STATUS[t["status"]]
        if status not in allowed:
            raise ToolError(f"cannot move a task from {t['status']} to {status}; allowed: {sorted(allowed) or 'none (done is final)'}")
        if status == "in_progress" and t["assignee_email"] is None:
            raise ToolError(f"task {task_id} has no assignee; assign it before starting it")
        return self.db["tasks"].update(task_id, status=status, updated_at=self.now())

    @tool(destructive=True, idempotent=True)
    def delete_task(self, task_id: TaskId) -> Task:
        """Delete a task and its comments.

        Args:
            task_id: The task to delete.
        """
        t = self.db["tasks"].require(task_id)
        self._active(t["project_id"])
        for c in self.db["comments"].find(task_id=task_id):
            self.db["comments"].delete(c["id"])
        return self.db["tasks"].delete(task_id)

    # -- comments ------------------------------------------------------------------------------
    @tool
    def add_comment(self, task_id: TaskId, body: Text, author: Email) -> Comment:
        """Comment on a task. Only project members can comment.

        Args:
            task_id: The task.
            body: The comment (not empty).
            author: Address of the member writing it.
        """
        if not body.strip():
            raise ToolError("a comment cannot be empty")
        t = self.db["tasks"].require(task_id)
        p = self._active(t["project_id"])
        self._check_member(p, author)
        return self.db["comments"].insert({"task_id": task_id, "author_email": author, "body": body, "created_at": self.now()})

    @tool(read_only=True)
    def list_comments(self, task_id: TaskId, limit: Limit = 20, offset: Offset = 0) -> Page[Comment]:
        """List a task's comments, oldest first.

        Args:
            task_id: The task.
            limit: Maximum number of results.
            offset: Results to skip.
        """
        self.db["tasks"].require(task_id)
        return page_by(self.db["comments"].find(task_id=task_id), _CREATED, limit, offset)
