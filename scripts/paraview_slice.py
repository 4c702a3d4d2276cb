"""A run's last snapshot cut by a plane through a point, coloured by temperature, to a PNG (pvbatch).

usage: pvbatch scripts/paraview_slice.py SERIES X,Y,Z OUT.png [GHOSTS]
  SERIES  a run's heat.hdf.series (or heat.pvd)
  X,Y,Z   a point of the plane, in the grid's coordinates (point (i, j, k) at (i*hx, j*hy, k*hz))
  GHOSTS  the outer points of each side to leave out (0, the default): r = order/2 where the faces
          are not layer, whose outer r points are ghosts that hold the closure's values, not the body
The plane is vertical (normal y), so that the base and the top of the body show; the camera looks
at it from -y with z up. The README's worked example runs it on the heated block."""
import sys

from paraview.simple import (ColorBy, CreateView, ExtractSubset, GetColorTransferFunction, GetScalarBar,
                             OpenDataFile, ResetCamera, SaveScreenshot, Show, Slice)

if len(sys.argv) not in (4, 5):
    sys.exit(__doc__)
series_path, point_text, image_path = sys.argv[1:4]
ghosts = int(sys.argv[4]) if len(sys.argv) == 5 else 0
point = [float(value) for value in point_text.split(",")]
if len(point) != 3:
    sys.exit(f"{point_text}: give the point as X,Y,Z")

series = OpenDataFile(series_path)
view = CreateView("RenderView")
view.ViewSize = [800, 600]
view.OrientationAxesVisibility = 1
view.ViewTime = series.TimestepValues[-1] if series.TimestepValues else 0
series.UpdatePipeline(view.ViewTime)

extent = series.GetDataInformation().GetExtent()
body = ExtractSubset(Input=series)
body.VOI = [extent[a] + (ghosts if a % 2 == 0 else -ghosts) for a in range(6)]
cut = Slice(Input=body)
cut.SliceType.Origin = point
cut.SliceType.Normal = [0, 1, 0]
display = Show(cut, view)
ColorBy(display, ("POINTS", "u"))
temperature = GetColorTransferFunction("u")
temperature.ApplyPreset("Inferno (matplotlib)", True)
display.RescaleTransferFunctionToDataRange(True, False)
bar = GetScalarBar(temperature, view)
bar.Title = "u (K)"
bar.ComponentTitle = ""
bar.Visibility = 1

view.CameraPosition = [point[0], point[1] - 1.0, point[2]]
view.CameraFocalPoint = point
view.CameraViewUp = [0, 0, 1]
ResetCamera(view)
SaveScreenshot(image_path, view, ImageResolution=[800, 600])
print(f"paraview_slice: {image_path}: the plane y = {point[1]} of {series_path} at time {view.ViewTime}")
