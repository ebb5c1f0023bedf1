//! A plot drawn by the engine's chart code (`export::chart::chart_svg`) and set into
//! the page as it is: the picture a student sees is the file "Save as SVG" gives.
//! The stylesheet recolours its frame for the theme through the SVG's classes.

use slowpath_engine::export::chart::{chart_svg, Chart};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq, Clone)]
pub struct ChartViewProps {
    pub chart: Rc<Chart>,
    /// A `data-testid` for the figure's frame.
    #[prop_or_default]
    pub testid: AttrValue,
}

#[function_component(ChartView)]
pub fn chart_view(props: &ChartViewProps) -> Html {
    // Written once per chart, not on every render of the panel around it.
    let svg = use_memo(props.chart.clone(), |chart| AttrValue::from(chart_svg(chart)));
    html! {
        // A focusable region named by the chart's title: where the plot is wider than
        // its place (compare mode) it scrolls sideways, and a keyboard must be able to
        // scroll it too (compare mode names each side's regions apart).
        <div class="chart-view" data-testid={props.testid.clone()} tabindex="0" role="region"
            aria-label={props.chart.title.clone()}>
            { Html::from_html_unchecked((*svg).clone()) }
        </div>
    }
}
