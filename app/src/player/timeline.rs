//! The timeline canvas (placeholder until the full component lands).

use slowpath_engine::timeline::Timeline as TimelineData;
use slowpath_engine::Run;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, Clone)]
pub struct TimelineProps {
    pub run: Rc<Run>,
    pub timeline: Rc<TimelineData>,
    /// The playhead: simulated time of the current position.
    pub now_ns: u64,
    /// Click to seek: the simulated time under the pointer.
    pub on_seek_time: Callback<u64>,
}

impl PartialEq for TimelineProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.run, &other.run)
            && Rc::ptr_eq(&self.timeline, &other.timeline)
            && self.now_ns == other.now_ns
    }
}

#[function_component(Timeline)]
pub fn timeline(_props: &TimelineProps) -> Html {
    html! { <canvas data-testid="timeline" class="timeline-canvas" aria-label="Timeline"></canvas> }
}
