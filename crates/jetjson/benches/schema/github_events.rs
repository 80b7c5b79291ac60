//! simdjson `github_events.json`: 30 events from the GitHub events API. The
//! payload's shape depends on the event type (push, create, fork, watch,
//! issues, issue comment, gollum); it is an untagged enum of one strict
//! struct per shape, so serialization writes just the payload's members.

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Event {
    #[serde(rename = "type")]
    pub kind: String,
    pub created_at: String,
    pub actor: Actor,
    pub repo: Repo,
    pub public: bool,
    /// Present on events of organisation repositories only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub org: Option<Actor>,
    pub payload: Payload,
    pub id: String,
}

pub type Events = Vec<Event>;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Actor {
    pub gravatar_id: String,
    pub login: String,
    pub avatar_url: String,
    pub url: String,
    pub id: u64,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Repo {
    pub url: String,
    pub id: u64,
    pub name: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Payload {
    Push(PushPayload),
    Create(CreatePayload),
    Fork(ForkPayload),
    IssueComment(IssueCommentPayload),
    Issues(IssuesPayload),
    Watch(WatchPayload),
    Gollum(GollumPayload),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PushPayload {
    pub commits: Vec<Commit>,
    pub distinct_size: u32,
    #[serde(rename = "ref")]
    pub git_ref: String,
    pub push_id: u64,
    pub head: String,
    pub before: String,
    pub size: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Commit {
    pub url: String,
    pub message: String,
    pub distinct: bool,
    pub sha: String,
    pub author: CommitAuthor,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CommitAuthor {
    pub email: String,
    pub name: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CreatePayload {
    pub description: String,
    pub master_branch: String,
    /// Null when a repository (rather than a branch or tag) was created.
    #[serde(rename = "ref")]
    pub git_ref: Option<String>,
    pub ref_type: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ForkPayload {
    pub forkee: Repository,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WatchPayload {
    pub action: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IssuesPayload {
    pub issue: Issue,
    pub action: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IssueCommentPayload {
    pub issue: Issue,
    pub action: String,
    pub comment: Comment,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GollumPayload {
    pub pages: Vec<Page>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Page {
    pub page_name: String,
    pub html_url: String,
    pub title: String,
    pub sha: String,
    pub summary: Option<String>,
    pub action: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GitHubUser {
    pub url: String,
    pub gists_url: String,
    pub gravatar_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub avatar_url: String,
    pub subscriptions_url: String,
    pub received_events_url: String,
    pub organizations_url: String,
    pub repos_url: String,
    pub login: String,
    pub id: u64,
    pub starred_url: String,
    pub events_url: String,
    pub followers_url: String,
    pub following_url: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Issue {
    pub user: GitHubUser,
    pub url: String,
    /// Empty in every issue of the document.
    pub labels: Vec<Label>,
    pub html_url: String,
    pub labels_url: String,
    pub pull_request: PullRequestLinks,
    pub created_at: String,
    pub closed_at: Option<String>,
    /// Null in every issue of the document.
    pub milestone: Option<()>,
    pub title: String,
    pub body: String,
    pub updated_at: String,
    pub number: u64,
    pub state: String,
    pub assignee: Option<GitHubUser>,
    pub id: u64,
    pub events_url: String,
    pub comments_url: String,
    pub comments: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Label {
    pub url: String,
    pub name: String,
    pub color: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PullRequestLinks {
    pub html_url: Option<String>,
    pub patch_url: Option<String>,
    pub diff_url: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Comment {
    pub user: GitHubUser,
    pub url: String,
    pub issue_url: String,
    pub created_at: String,
    pub body: String,
    pub updated_at: String,
    pub id: u64,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Repository {
    pub description: String,
    pub fork: bool,
    pub url: String,
    pub language: String,
    pub stargazers_url: String,
    pub clone_url: String,
    pub tags_url: String,
    pub full_name: String,
    pub merges_url: String,
    pub forks: u32,
    pub private: bool,
    pub git_refs_url: String,
    pub archive_url: String,
    pub collaborators_url: String,
    pub owner: GitHubUser,
    pub languages_url: String,
    pub trees_url: String,
    pub labels_url: String,
    pub html_url: String,
    pub pushed_at: String,
    pub created_at: String,
    pub has_issues: bool,
    pub forks_url: String,
    pub branches_url: String,
    pub commits_url: String,
    pub notifications_url: String,
    pub open_issues: u32,
    pub contents_url: String,
    pub blobs_url: String,
    pub issues_url: String,
    pub compare_url: String,
    pub issue_events_url: String,
    pub name: String,
    pub updated_at: String,
    pub statuses_url: String,
    pub forks_count: u32,
    pub assignees_url: String,
    pub ssh_url: String,
    pub public: bool,
    pub has_wiki: bool,
    pub subscribers_url: String,
    pub mirror_url: Option<String>,
    pub watchers_count: u32,
    pub id: u64,
    pub has_downloads: bool,
    pub git_commits_url: String,
    pub downloads_url: String,
    pub pulls_url: String,
    pub homepage: Option<String>,
    pub issue_comment_url: String,
    pub hooks_url: String,
    pub subscription_url: String,
    pub milestones_url: String,
    pub svn_url: String,
    pub events_url: String,
    pub git_tags_url: String,
    pub teams_url: String,
    pub comments_url: String,
    pub open_issues_count: u32,
    pub keys_url: String,
    pub git_url: String,
    pub contributors_url: String,
    pub size: u64,
    pub watchers: u32,
}
