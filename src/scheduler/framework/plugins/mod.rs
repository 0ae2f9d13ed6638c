//! The plugins of v1.34's default profile that kubesim runs, one folder each, named as upstream
//! (`pkg/scheduler/framework/plugins/`). Not run: SchedulingGates (no gated pods), NodeVolumeLimits
//! and VolumeZone (no CSI drivers or zonal volumes), DynamicResources (no DRA; its PostFilter
//! reason is in [`super::preemption::post_filter_message`]). DefaultBinder is the scheduler's
//! `binding` POST ([`crate::scheduler`]).

pub mod defaultpreemption;
pub mod helper;
pub mod imagelocality;
pub mod interpodaffinity;
pub mod nodeaffinity;
pub mod nodename;
pub mod nodeports;
pub mod noderesources;
pub mod nodeunschedulable;
pub mod podtopologyspread;
pub mod queuesort;
pub mod tainttoleration;
pub mod volumebinding;
