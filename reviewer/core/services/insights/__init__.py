"""Collection insights: what many reviewed games say about each player (docs/SCORING.md,
"Collection insights"), as a `reviewer.insights/1` object, a CSV table and an HTML page.

    insights = collection_insights(reports, player="Ju, Wenjun")   # reports: reviewer.report/1 dicts
    insights_csv(insights), insights_html(insights)
"""

from reviewer.core.services.insights.collect import SCHEMA, collection_insights, left_out_reason
from reviewer.core.services.insights.render import INSIGHTS_CSV_COLUMNS, insights_csv, insights_html

__all__ = ["INSIGHTS_CSV_COLUMNS", "SCHEMA", "collection_insights", "insights_csv", "insights_html", "left_out_reason"]
