"""The Qt-free core: game model, formats, engines, scoring, reports."""
